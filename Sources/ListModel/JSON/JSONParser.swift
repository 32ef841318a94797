/// A strict RFC 8259 parser over raw bytes.
///
/// Rejects invalid UTF-8, lone surrogate escapes, control characters in strings, leading zeros,
/// numbers that overflow to infinity, duplicate member names, nesting beyond `maxDepth` and
/// anything after the value. Strings are built from validated slices of the input.
struct JSONParser: ~Copyable {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private let maxDepth: Int
    private var index = 0
    private var depth = 0
    /// Reused buffer for strings holding escapes.
    private var scratch: [UInt8] = []
    /// Elements of the arrays being parsed, innermost last; each array is copied out at its
    /// close with its exact size, so parsing allocates once per container.
    private var elementStack = ParseStack<JSONValue>()
    /// Members of the objects being parsed, innermost last.
    private var memberStack = ParseStack<JSONObject.Member>()

    /// Parses one JSON text that must fill all of `bytes`.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) throws(JSONParseError) -> JSONValue {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw JSONParseError(offset: 0, message: "unexpected end of input")
        }
        var parser = JSONParser(base: base, end: bytes.count, maxDepth: maxDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < parser.end {
            throw parser.failure("unexpected \(parser.describeByte(at: parser.index)) after the JSON value")
        }
        return value
    }

    private init(base: UnsafePointer<UInt8>, end: Int, maxDepth: Int) {
        self.base = base
        self.end = end
        self.maxDepth = maxDepth
    }

    // MARK: Values

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < end else { throw failure("unexpected end of input") }
        switch base[index] {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        default: throw failure("unexpected \(describeByte(at: index)), expected a value")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for k in 0..<count where index + k >= end || base[index + k] != start[k] {
            throw failure("invalid literal, expected \(literal)")
        }
        index += count
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth { throw failure("nesting deeper than \(maxDepth) levels") }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        index += 1
        skipWhitespace()
        if index < end && base[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array([])
        }
        let first = elementStack.count
        while true {
            skipWhitespace()
            let element = try parseValue()
            elementStack.push(element)
            skipWhitespace()
            guard index < end else { throw failure("unexpected end of input in array") }
            let byte = base[index]
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "]") { break }
            index -= 1
            throw failure("unexpected \(describeByte(at: index)) in array, expected ',' or ']'")
        }
        depth -= 1
        return .array(elementStack.popArray(from: first))
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        index += 1
        var seen: Set<String>? = nil  // built once an object grows past linear-scan size
        skipWhitespace()
        if index < end && base[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONObject())
        }
        let first = memberStack.count
        while true {
            skipWhitespace()
            guard index < end else { throw failure("unexpected end of input in object") }
            guard base[index] == UInt8(ascii: "\"") else {
                throw failure("unexpected \(describeByte(at: index)), expected a member name")
            }
            let keyOffset = index
            let key = try parseString()
            if isDuplicate(key, from: first, seen: &seen) {
                throw JSONParseError(offset: keyOffset, message: "duplicate member name \(quoted(key))")
            }
            skipWhitespace()
            guard index < end, base[index] == UInt8(ascii: ":") else {
                throw failure(index < end ? "unexpected \(describeByte(at: index)), expected ':'" : "unexpected end of input in object")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            memberStack.push((key, value))
            skipWhitespace()
            guard index < end else { throw failure("unexpected end of input in object") }
            let byte = base[index]
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "}") { break }
            index -= 1
            throw failure("unexpected \(describeByte(at: index)) in object, expected ',' or '}'")
        }
        depth -= 1
        return .object(JSONObject(uniqueMembers: memberStack.popArray(from: first)))
    }

    /// Whether `key` already names a member of the object whose members start at `first` on
    /// the member stack, comparing UTF-8 bytes (not canonical equivalence).
    private func isDuplicate(_ key: String, from first: Int, seen: inout Set<String>?) -> Bool {
        let count = memberStack.count - first
        if count < 16 {
            for k in first..<memberStack.count where utf8Equal(memberStack[k].key, key) { return true }
            return false
        }
        if seen == nil { seen = Set((first..<memberStack.count).map { memberStack[$0].key }) }
        if seen!.insert(key).inserted { return false }
        // Set membership uses canonical equivalence; confirm byte equality.
        return (first..<memberStack.count).contains { utf8Equal(memberStack[$0].key, key) }
    }

    // MARK: Whitespace and errors

    @inline(__always)
    private mutating func skipWhitespace() {
        while index < end {
            switch base[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    func failure(_ message: String) -> JSONParseError {
        JSONParseError(offset: index, message: message)
    }

    func describeByte(at offset: Int) -> String {
        guard offset < end else { return "end of input" }
        let byte = base[offset]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + hex2(byte)
    }

    // MARK: Strings

    /// Parses a string starting at its opening quote; leaves `index` after the closing quote.
    private mutating func parseString() throws(JSONParseError) -> String {
        let open = index
        let start = index + 1
        var i = start
        var sawNonASCII = false
        var highBits: UInt64 = 0
        while true {
            // Skip 8 bytes at a time while none is a quote, a backslash or a control character.
            while i + 8 <= end {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if wordNeedsAttention(word) { break }
                highBits |= word
                i += 8
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
        if !sawNonASCII { return String(decoding: slice, as: UTF8.self) }
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw invalidUTF8(from: start, to: i)
        }
        return string
    }

    private mutating func parseEscapedString(open: Int, prefixEnd: Int, sawNonASCII: Bool) throws(JSONParseError) -> String {
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
        guard let string = String(validating: scratch, as: UTF8.self) else {
            throw invalidUTF8(from: start, to: i)
        }
        return string
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

    private func invalidUTF8(from start: Int, to stop: Int) -> JSONParseError {
        let offset = firstInvalidUTF8(UnsafeBufferPointer(start: base + start, count: stop - start)).map { start + $0 } ?? start
        return JSONParseError(offset: offset, message: "invalid UTF-8 (byte 0x\(hex2(base[offset]))) in string")
    }

    // MARK: Numbers

    /// Parses a number per the JSON grammar; exact fast path for short decimals, `strtod` otherwise.
    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = index
        var i = index
        let negative = base[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < end, isDigit(base[i]) else {
            throw JSONParseError(offset: i, message: "expected a digit in number")
        }
        var mantissa: UInt64 = 0
        var exact = true  // mantissa holds every significant digit
        var exponent = 0  // decimal exponent applied to mantissa
        if base[i] == UInt8(ascii: "0") {
            i += 1
            if i < end && isDigit(base[i]) { throw JSONParseError(offset: start, message: "leading zero in number") }
        } else {
            while i < end && isDigit(base[i]) {
                accumulate(base[i], into: &mantissa, exact: &exact, dropped: &exponent)
                i += 1
            }
        }
        if i < end && base[i] == UInt8(ascii: ".") {
            i += 1
            guard i < end, isDigit(base[i]) else {
                throw JSONParseError(offset: i, message: "expected a digit after '.' in number")
            }
            while i < end && isDigit(base[i]) {
                var ignored = 0
                accumulate(base[i], into: &mantissa, exact: &exact, dropped: &ignored)
                if exact { exponent -= 1 }
                i += 1
            }
        }
        if i < end && (base[i] == UInt8(ascii: "e") || base[i] == UInt8(ascii: "E")) {
            i += 1
            var negativeExponent = false
            if i < end && (base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-")) {
                negativeExponent = base[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < end, isDigit(base[i]) else {
                throw JSONParseError(offset: i, message: "expected a digit in exponent")
            }
            var value = 0
            while i < end && isDigit(base[i]) {
                if value < 1_000_000 { value = value * 10 + Int(base[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            exponent += negativeExponent ? -value : value
        }
        index = i
        if exact && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            // Both operands are exact doubles, so one correctly rounded operation gives the exact result.
            var result = Double(mantissa)
            if exponent > 0 { result *= powersOfTen[exponent] } else if exponent < 0 { result /= powersOfTen[-exponent] }
            return negative ? -result : result
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self)
        guard let result = Double(text), result.isFinite else {
            throw JSONParseError(offset: start, message: "number \(text.prefix(40)) is too large")
        }
        return result
    }

    @inline(__always)
    private func accumulate(_ digit: UInt8, into mantissa: inout UInt64, exact: inout Bool, dropped: inout Int) {
        guard exact else { dropped += 1; return }
        let (times10, o1) = mantissa.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(UInt64(digit &- UInt8(ascii: "0")))
        if o1 || o2 { exact = false; dropped += 1 } else { mantissa = sum }
    }
}

/// Whether any of the 8 bytes in `word` is `"`, `\` or below 0x20 (exact, no false positives).
@inline(__always)
private func wordNeedsAttention(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let control = (word &- ones &* 0x20) & ~word
    let hasQuote = (quote &- ones) & ~quote
    let hasBackslash = (backslash &- ones) & ~backslash
    return (control | hasQuote | hasBackslash) & high != 0
}

@inline(__always)
private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

private let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

private let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

/// Two uppercase hex digits.
func hex2(_ byte: UInt8) -> String {
    String(decoding: [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]], as: UTF8.self)
}

private func hex4String(_ value: UInt32) -> String {
    hex2(UInt8(value >> 8)) + hex2(UInt8(value & 0xFF))
}

/// `string` as a JSON string literal, for error messages.
func quoted(_ string: String) -> String {
    String(decoding: JSONValue.string(string).serialized(), as: UTF8.self)
}
