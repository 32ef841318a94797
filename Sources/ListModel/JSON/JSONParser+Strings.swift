extension JSONParser {
    /// Parses a string starting at its opening quote; leaves `index` after the closing quote.
    mutating func parseString() throws(JSONParseError) -> String {
        lastStringHadEscape = false
        let open = index
        let start = index + 1
        var i = start
        var sawNonASCII = false
        var highBits: UInt64 = 0
        while true {
            // Skip 8 bytes at a time while none is a quote, a backslash or a control character,
            // then jump straight to the first one that is.
            while i + 8 <= end {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                let special = specialBytes(word)
                if special == 0 {
                    highBits |= word
                    i += 8
                    continue
                }
                let clean = special.trailingZeroBitCount / 8  // bytes before the first special one
                highBits |= word & ((1 &<< UInt64(clean &* 8)) &- 1)
                i += clean
                break
            }
            guard i < end else { throw JSONParseError(offset: open, message: "unterminated string") }
            let byte = base[i]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                let nonASCII = sawNonASCII || highBits & 0x8080_8080_8080_8080 != 0
                return try parseEscapedString(open: open, prefixEnd: i, sawNonASCII: nonASCII)
            }
            if byte < 0x20 { throw JSONParseError(offset: i, message: "control character 0x\(hex2(byte)) in string") }
            if byte >= 0x80 { sawNonASCII = true }
            i += 1
        }
        if highBits & 0x8080_8080_8080_8080 != 0 { sawNonASCII = true }
        let slice = UnsafeBufferPointer(start: base + start, count: i - start)
        index = i + 1
        if !sawNonASCII {
            if slice.count <= 15, start + 16 <= end, let shortStrings {
                return shortStrings.string(at: base + start, length: slice.count)
            }
            return String(decoding: slice, as: UTF8.self)
        }
        return try validatedString(slice, from: start)
    }

    private mutating func parseEscapedString(open: Int, prefixEnd: Int, sawNonASCII: Bool) throws(JSONParseError) -> String {
        lastStringHadEscape = true
        let start = open + 1
        var sawNonASCII = sawNonASCII
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: prefixEnd - start))
        var i = prefixEnd
        while true {
            guard i < end else { throw JSONParseError(offset: open, message: "unterminated string") }
            let byte = base[i]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                i = try decodeEscape(at: i)
                continue
            }
            if byte < 0x20 { throw JSONParseError(offset: i, message: "control character 0x\(hex2(byte)) in string") }
            if byte >= 0x80 { sawNonASCII = true }
            scratch.append(byte)
            i += 1
        }
        index = i + 1
        if !sawNonASCII { return String(decoding: scratch, as: UTF8.self) }
        // Escapes decode to valid UTF-8, so an invalid sequence came from the input as it was.
        guard scratch.withUnsafeBufferPointer({ firstInvalidUTF8($0) }) == nil else {
            throw invalidUTF8(from: start, to: i)
        }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Decodes the escape at `i` (a backslash) into `scratch`; returns the offset after it.
    private mutating func decodeEscape(at i: Int) throws(JSONParseError) -> Int {
        guard i + 1 < end else { throw JSONParseError(offset: i, message: "unterminated string") }
        let decoded: UInt8
        switch base[i + 1] {
        case UInt8(ascii: "\""): decoded = 0x22
        case UInt8(ascii: "\\"): decoded = 0x5C
        case UInt8(ascii: "/"): decoded = 0x2F
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            var scalar = try hex4(at: i + 2)
            var next = i + 6
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                guard next + 1 < end, base[next] == UInt8(ascii: "\\"), base[next + 1] == UInt8(ascii: "u") else {
                    throw JSONParseError(offset: i, message: "lone surrogate \\u\(hex4String(scalar)) in string")
                }
                let low = try hex4(at: next + 2)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw JSONParseError(offset: i, message: "lone surrogate \\u\(hex4String(scalar)) in string")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                next += 6
            } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                throw JSONParseError(offset: i, message: "lone surrogate \\u\(hex4String(scalar)) in string")
            }
            appendUTF8(scalar)
            return next
        default:
            throw JSONParseError(offset: i, message: "invalid escape \(describeByte(at: i + 1)) in string")
        }
        scratch.append(decoded)
        return i + 2
    }

    private func hex4(at offset: Int) throws(JSONParseError) -> UInt32 {
        guard offset + 4 <= end else { throw JSONParseError(offset: offset - 2, message: "incomplete \\u escape") }
        var value: UInt32 = 0
        for k in 0..<4 {
            let byte = base[offset + k]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: throw JSONParseError(offset: offset + k, message: "invalid hex digit \(describeByte(at: offset + k)) in \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case ..<0x80:
            scratch.append(UInt8(scalar))
        case ..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The string of `slice` (the input from `start`), which must be valid UTF-8.
    ///
    /// Validates here and then decodes, rather than calling `String(validating:as:)`: that
    /// generic initializer looks up type metadata on every call, which cost more than the
    /// validation itself for short strings.
    private func validatedString(_ slice: UnsafeBufferPointer<UInt8>, from start: Int) throws(JSONParseError) -> String {
        guard firstInvalidUTF8(slice) == nil else { throw invalidUTF8(from: start, to: start + slice.count) }
        return String(decoding: slice, as: UTF8.self)
    }

    private func invalidUTF8(from start: Int, to stop: Int) -> JSONParseError {
        let offset = firstInvalidUTF8(UnsafeBufferPointer(start: base + start, count: stop - start)).map { start + $0 } ?? start
        return JSONParseError(offset: offset, message: "invalid UTF-8 (byte 0x\(hex2(base[offset]))) in string")
    }

}

/// The high bit of each of the 8 bytes in `word` (little-endian) that may be `"`, `\` or below
/// 0x20. Zero exactly when there is none; the lowest set bit always marks the first such byte
/// (higher marks can be false, from borrows).
@inline(__always)
private func specialBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let control = (word &- ones &* 0x20) & ~word
    let hasQuote = (quote &- ones) & ~quote
    let hasBackslash = (backslash &- ones) & ~backslash
    return (control | hasQuote | hasBackslash) & high
}
