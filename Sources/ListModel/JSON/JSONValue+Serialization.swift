extension JSONValue {
    /// The canonical JSON text of this value as UTF-8 bytes.
    ///
    /// No whitespace; object members in stored order; integers within ±2^53 without a fraction
    /// (`3`, `-0` as `0`), other numbers in shortest round-trip form (`1e+20`, `0.1`); non-finite
    /// numbers, which JSON cannot express, as `null`. Strings escape only `"`, `\`, control
    /// characters and U+2028/U+2029; everything else is raw UTF-8.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        serialize(into: &out)
        return out
    }

    /// Appends the canonical JSON text of this value to `out` (see ``serialized()``).
    public func serialize(into out: inout [UInt8]) {
        switch self {
        case .null: appendLiteral("null", to: &out)
        case .bool(let value): appendLiteral(value ? "true" : "false", to: &out)
        case .number(let value): appendNumber(value, to: &out)
        case .string(let value): appendString(value, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                element.serialize(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in object.members {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.serialize(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}

@inline(__always)
private func appendLiteral(_ literal: StaticString, to out: inout [UInt8]) {
    out.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
}

/// Appends a number: exact integers as digits, the rest in Swift's shortest round-trip form.
func appendNumber(_ value: Double, to out: inout [UInt8]) {
    guard value.isFinite else { appendLiteral("null", to: &out); return }
    if value == value.rounded(.towardZero) && abs(value) <= 9_007_199_254_740_992 {
        appendInteger(Int64(value), to: &out)
        return
    }
    var text = value.description  // shortest round-trip; always valid JSON for finite values
    text.withUTF8 { out.append(contentsOf: $0) }
}

/// Appends the decimal digits of `value`.
func appendInteger(_ value: Int64, to out: inout [UInt8]) {
    if value >= 0 && value < 10 {
        out.append(UInt8(ascii: "0") + UInt8(value))
        return
    }
    var magnitude = value.magnitude
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
        var position = 20
        repeat {
            position -= 1
            buffer[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        if value < 0 {
            position -= 1
            buffer[position] = UInt8(ascii: "-")
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position..<20]))
    }
}

/// Appends `string` as a JSON string literal with minimal escaping.
func appendString(_ string: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    let done: Void? = string.utf8.withContiguousStorageIfAvailable { appendEscaped($0, to: &out) }
    if done == nil { Array(string.utf8).withUnsafeBufferPointer { appendEscaped($0, to: &out) } }
    out.append(UInt8(ascii: "\""))
}

private func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
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
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
        switch byte {
        case UInt8(ascii: "\""): appendLiteral("\\\"", to: &out)
        case UInt8(ascii: "\\"): appendLiteral("\\\\", to: &out)
        case 0x0A: appendLiteral("\\n", to: &out)
        case 0x0D: appendLiteral("\\r", to: &out)
        case 0x09: appendLiteral("\\t", to: &out)
        case 0x08: appendLiteral("\\b", to: &out)
        case 0x0C: appendLiteral("\\f", to: &out)
        case 0xE2:
            appendLiteral(bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029", to: &out)
            i += 2
        default:
            appendLiteral("\\u00", to: &out)
            out.append(contentsOf: hex2(byte).utf8)
        }
        i += 1
        runStart = i
    }
    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
}
