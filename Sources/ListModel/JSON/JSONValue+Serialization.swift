extension JSONValue {
    /// The canonical JSON text of this value as UTF-8 bytes.
    ///
    /// No whitespace; object members in stored order; integers within ±2^53 without a fraction
    /// (`3`, `-0` as `0`), other numbers in shortest round-trip form (`1e+20`, `0.1`); non-finite
    /// numbers, which JSON cannot express, as `null`. Strings escape only `"`, `\`, control
    /// characters and U+2028/U+2029; everything else is raw UTF-8.
    public func serialized() -> [UInt8] {
        var writer = JSONWriter()
        writer.writeValue(self)
        return writer.bytes
    }

    /// Appends the canonical JSON text of this value to `out` (see ``serialized()``).
    public func serialize(into out: inout [UInt8]) {
        var writer = JSONWriter()
        writer.writeValue(self)
        writer.append(to: &out)
    }

    /// The canonical JSON text of this value as a string (see ``serialized()``), for messages.
    public var serializedText: String { String(decoding: serialized(), as: UTF8.self) }
}

extension JSONWriter {
    /// Writes the canonical JSON text of `value`.
    mutating func writeValue(_ value: borrowing JSONValue) {
        switch value {
        case .null: write("null")
        case .bool(let flag): write(flag ? "true" : "false")
        case .number(let number): writeNumber(number)
        case .string(let string): writeString(string)
        case .array(let elements):
            write(UInt8(ascii: "["))
            elements.withUnsafeBufferPointer { buffer in
                for index in buffer.indices {
                    if index > 0 { write(UInt8(ascii: ",")) }
                    writeValue(buffer[index])
                }
            }
            write(UInt8(ascii: "]"))
        case .object(let object):
            write(UInt8(ascii: "{"))
            object.withMembers { buffer in
                for index in buffer.indices {
                    if index > 0 { write(UInt8(ascii: ",")) }
                    writeString(buffer[index].key)
                    write(UInt8(ascii: ":"))
                    writeValue(buffer[index].value)
                }
            }
            write(UInt8(ascii: "}"))
        }
    }

    /// Writes a number: exact integers as digits, the rest in Swift's shortest round-trip form.
    mutating func writeNumber(_ value: Double) {
        guard value.isFinite else {
            write("null")
            return
        }
        if value == value.rounded(.towardZero) && abs(value) <= 9_007_199_254_740_992 {
            writeInteger(Int64(value))
            return
        }
        var text = value.description  // shortest round-trip; always valid JSON for finite values
        text.withUTF8 { write($0) }
    }

    /// Writes the decimal digits of `value`.
    mutating func writeInteger(_ value: Int64) {
        reserve(20)
        if value >= 0 && value < 10 {
            writeUnchecked(UInt8(ascii: "0") &+ UInt8(value))
            return
        }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch on the stack
        withUnsafeMutableBytes(of: &digits) { raw in
            var position = 24
            repeat {
                position -= 1
                raw[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                position -= 1
                raw[position] = UInt8(ascii: "-")
            }
            write(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[position..<24]))
        }
    }

    /// Writes `string` as a JSON string literal with minimal escaping.
    mutating func writeString(_ string: String) {
        write(UInt8(ascii: "\""))
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { writeEscaped($0) }
        if done == nil { Array(string.utf8).withUnsafeBufferPointer { writeEscaped($0) } }
        write(UInt8(ascii: "\""))
    }

    /// Writes UTF-8 `bytes` (a packed cell's string) as a JSON string literal, as `writeString`.
    mutating func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        write(UInt8(ascii: "\""))
        writeEscaped(bytes)
        write(UInt8(ascii: "\""))
    }

    private mutating func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var i = 0
        let count = bytes.count
        while i < count {
            let byte = bytes[i]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != 0xE2 {
                i += 1
                continue
            }
            if byte == 0xE2 {
                // U+2028 and U+2029 (E2 80 A8/A9) end lines in JavaScript source: escape them.
                guard i + 2 < count, bytes[i + 1] == 0x80, bytes[i + 2] & 0xFE == 0xA8 else {
                    i += 1
                    continue
                }
            }
            write(UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
            switch byte {
            case UInt8(ascii: "\""): write("\\\"")
            case UInt8(ascii: "\\"): write("\\\\")
            case 0x0A: write("\\n")
            case 0x0D: write("\\r")
            case 0x09: write("\\t")
            case 0x08: write("\\b")
            case 0x0C: write("\\f")
            case 0xE2:
                write(bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                i += 2
            default:
                let hex: StaticString = "0123456789ABCDEF"
                write("\\u00")
                reserve(2)
                writeUnchecked(hex.utf8Start[Int(byte >> 4)])
                writeUnchecked(hex.utf8Start[Int(byte & 0xF)])
            }
            i += 1
            runStart = i
        }
        write(UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
    }
}

/// Appends `string` as a JSON string literal (see ``JSONValue/serialized()``).
func appendString(_ string: String, to out: inout [UInt8]) {
    var writer = JSONWriter(capacity: string.utf8.count + 8)
    writer.writeString(string)
    writer.append(to: &out)
}

/// Appends a number in canonical form (see ``JSONValue/serialized()``).
func appendNumber(_ value: Double, to out: inout [UInt8]) {
    var writer = JSONWriter(capacity: 32)
    writer.writeNumber(value)
    writer.append(to: &out)
}
