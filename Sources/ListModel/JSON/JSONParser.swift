/// A strict RFC 8259 parser over raw bytes.
///
/// Rejects invalid UTF-8, lone surrogate escapes, control characters in strings, leading zeros,
/// numbers that overflow to infinity, duplicate member names, nesting beyond `maxDepth` and
/// anything after the value. Strings are built from validated slices of the input.
struct JSONParser: ~Copyable {
    let base: UnsafePointer<UInt8>
    let end: Int
    let maxDepth: Int
    var index = 0
    var depth = 0
    /// Reused buffer for strings holding escapes.
    var scratch: [UInt8] = []
    /// Short strings seen before, reused instead of built again; created for long inputs only.
    var shortStrings: ShortStringCache?
    /// Elements of the arrays being parsed, innermost last; each array is copied out at its
    /// close with its exact size, so parsing allocates once per container.
    private var elementStack = ParseStack<JSONValue>()
    /// Members of the objects being parsed, innermost last.
    private var memberStack = ParseStack<JSONObjectEntry>()
    /// Where each name on `memberStack` lies in the input, to find duplicates by raw bytes.
    private var nameStack = ParseStack<NameSpan>()
    /// Whether the last string parsed held an escape (so its bytes differ from the input's).
    var lastStringHadEscape = false

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
        // Below a few kilobytes, building the cache costs more than it saves.
        shortStrings = end >= 4096 ? ShortStringCache() : nil
    }

    deinit { shortStrings?.deallocate() }

    // MARK: Values

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < end else { throw failure("unexpected end of input") }
        switch base[index] {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
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
            elementStack.push(consume element)
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
        var seen: Set<ByteKey>? = nil  // built once an object grows past linear-scan size
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
            let name = NameSpan(start: keyOffset + 1, length: lastStringHadEscape ? -1 : index - keyOffset - 2)
            if isDuplicate(key, name, from: first, seen: &seen) {
                throw JSONParseError(offset: keyOffset, message: "duplicate member name \(quoted(key))")
            }
            skipWhitespace()
            guard index < end, base[index] == UInt8(ascii: ":") else {
                throw failure(index < end ? "unexpected \(describeByte(at: index)), expected ':'" : "unexpected end of input in object")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            memberStack.push(JSONObjectEntry(key: consume key, value: consume value))
            nameStack.push(name)  // after the value, whose own members come and go above it
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
        nameStack.popAll(from: first)
        return .object(memberStack.popMoving(from: first) { JSONObject(movingUniqueMembersFrom: $0, count: $1) })
    }

    /// Whether `key` (found at `name` in the input) already names a member of the object whose
    /// members start at `first` on the member stack, comparing UTF-8 bytes (not canonical
    /// equivalence).
    @inline(__always)
    private mutating func isDuplicate(_ key: String, _ name: NameSpan, from first: Int, seen: inout Set<ByteKey>?) -> Bool {
        let count = memberStack.count - first
        if count < 16 {
            for k in first..<memberStack.count {
                let other = nameStack[k]
                if name.length >= 0 && other.length >= 0 {
                    // Neither name held an escape: their input bytes are their UTF-8.
                    if other.length == name.length && bytesEqual(base + other.start, base + name.start, count: name.length) {
                        return true
                    }
                } else if utf8Equal(memberStack[k].key, key) {
                    return true
                }
            }
            return false
        }
        return isDuplicateInLargeObject(key, from: first, seen: &seen)
    }

    /// ``isDuplicate(_:_:from:seen:)`` for objects of 16 members or more: a set of the names.
    @inline(never)
    private mutating func isDuplicateInLargeObject(_ key: String, from first: Int, seen: inout Set<ByteKey>?) -> Bool {
        if seen == nil { seen = Set((first..<memberStack.count).map { ByteKey(memberStack[$0].key) }) }
        return !seen!.insert(ByteKey(key)).inserted
    }

    /// Whether the `count` bytes at `a` and `b` (both inside the input) are equal.
    @inline(__always)
    private func bytesEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            let x = UnsafeRawPointer(a + offset).loadUnaligned(as: UInt64.self)
            let y = UnsafeRawPointer(b + offset).loadUnaligned(as: UInt64.self)
            if x != y { return false }
            offset += 8
        }
        while offset < count {
            if a[offset] != b[offset] { return false }
            offset += 1
        }
        return true
    }

    // MARK: Whitespace and errors

    @inline(__always)
    mutating func skipWhitespace() {
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
}

private let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

/// Two uppercase hex digits.
func hex2(_ byte: UInt8) -> String {
    String(decoding: [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]], as: UTF8.self)
}

func hex4String(_ value: UInt32) -> String {
    hex2(UInt8(value >> 8)) + hex2(UInt8(value & 0xFF))
}

/// `string` as a JSON string literal, for error messages.
func quoted(_ string: String) -> String {
    String(decoding: JSONValue.string(string).serialized(), as: UTF8.self)
}

/// Where a member name lies in the input: its bytes after the opening quote, or a length of
/// -1 when it held an escape.
struct NameSpan {
    var start: Int
    var length: Int
}
