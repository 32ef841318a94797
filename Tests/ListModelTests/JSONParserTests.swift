import Foundation
import ListModelTesting
import Testing

@testable import ListModel

/// Parses `text` (UTF-8) or returns the error.
private func parse(_ text: String, maxDepth: Int = 64) -> Result<JSONValue, JSONParseError> {
    Result { () throws(JSONParseError) in try JSONValue(parsing: Array(text.utf8), maxDepth: maxDepth) }
}

private func parseBytes(_ bytes: [UInt8]) -> Result<JSONValue, JSONParseError> {
    Result { () throws(JSONParseError) in try JSONValue(parsing: bytes) }
}

private func error(_ result: Result<JSONValue, JSONParseError>) -> JSONParseError? {
    if case .failure(let error) = result { return error }
    return nil
}

@Suite struct JSONParserTests {
    @Test(
        arguments: [
            ("null", JSONValue.null), ("true", true), ("false", false), ("0", 0), ("-0", 0),
            ("12", 12), ("-12.5", -12.5), ("1e3", 1000), ("1E+3", 1000), ("2.5e-3", 0.0025),
            ("\"\"", ""), ("\"a\\\"b\"", "a\"b"), ("[]", []), ("{}", [:]),
            (" [1, [2, {\"a\": null}]] \n", [1, [2, ["a": nil]]]),
            ("\"\\u00e9\\ud83d\\ude00\\/\\b\\f\\n\\r\\t\\\\\"", "é😀/\u{8}\u{c}\n\r\t\\"),
            ("\"héllo 😀\"", "héllo 😀"),
            ("{\"a\":1,\"b\":[true,false,null]}", ["a": 1, "b": [true, false, nil]]),
        ] as [(String, JSONValue)])
    func accepts(text: String, expected: JSONValue) throws {
        #expect(try parse(text).get() == expected)
    }

    @Test func keepsMemberOrder() throws {
        let value = try JSONValue(parsing: Array("{\"b\":1,\"a\":2,\"c\":3}".utf8))
        #expect(value.objectValue?.keys == ["b", "a", "c"])
    }

    @Test func parsesNumbersExactly() throws {
        let cases: [(String, Double)] = [
            ("0.1", 0.1), ("58.9", 58.9), ("123456789012345678901234567890", 123456789012345678901234567890.0),
            ("1.7976931348623157e308", 1.7976931348623157e308), ("5e-324", .leastNonzeroMagnitude),
            ("9007199254740993", 9007199254740992), ("0.30000000000000004", 0.30000000000000004),
            ("-1e-400", -0.0), ("1e22", 1e22), ("1e23", 1e23), ("0.000001234", 0.000001234),
            ("3.141592653589793238462643383279", 3.141592653589793),
        ]
        for (text, expected) in cases {
            #expect(try parse(text).get() == .number(expected), "\(text)")
        }
    }

    @Test(
        arguments: [
            // (input, offset, message fragment)
            ("", 0, "unexpected end of input"),
            ("   ", 3, "unexpected end of input"),
            ("[1,2] x", 6, "after the JSON value"),
            ("{} {}", 3, "after the JSON value"),
            ("{\"a\":1,\"a\":2}", 7, "duplicate member name \"a\""),
            ("{\"x\":{\"k\":1,\"k\":1}}", 12, "duplicate member name \"k\""),
            ("01", 0, "leading zero"),
            ("[-012]", 1, "leading zero"),
            ("1e400", 0, "too large"),
            ("[-1e999]", 1, "too large"),
            ("\"a\u{1}b\"", 2, "control character 0x01"),
            ("\"tab\there\"", 4, "control character 0x09"),
            ("\"\\ud800\"", 1, "lone surrogate \\uD800"),
            ("\"\\udc00\"", 1, "lone surrogate \\uDC00"),
            ("\"x\\ud800\\u0041\"", 2, "lone surrogate"),
            ("\"\\x\"", 1, "invalid escape 'x'"),
            ("\"\\u12G4\"", 5, "invalid hex digit 'G'"),
            ("\"abc", 0, "unterminated string"),
            ("[1,]", 3, "expected a value"),
            ("[1 2]", 3, "expected ',' or ']'"),
            ("{\"a\" 1}", 5, "expected ':'"),
            ("{\"a\":1,}", 7, "expected a member name"),
            ("{a:1}", 1, "expected a member name"),
            ("tru", 0, "invalid literal"),
            ("nul", 0, "invalid literal"),
            ("1.", 2, "after '.'"),
            ("1e", 2, "exponent"),
            ("-", 1, "expected a digit"),
            ("+1", 0, "expected a value"),
            (".5", 0, "expected a value"),
            ("NaN", 0, "expected a value"),
            ("[1", 2, "unexpected end of input"),
        ] as [(String, Int, String)])
    func rejects(text: String, offset: Int, message: String) {
        let failure = error(parse(text))
        #expect(failure?.offset == offset, "\(text)")
        #expect(failure?.message.contains(message) == true, "\(text): \(failure?.message ?? "accepted")")
    }

    @Test(
        arguments: [
            ([0x22, 0xC0, 0x80, 0x22], 1),  // overlong NUL
            ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1),  // overlong "/"
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // UTF-8 encoded surrogate U+D800
            ([0x22, 0x61, 0x80, 0x22], 2),  // stray continuation byte
            ([0x22, 0x61, 0xC3, 0x22], 2),  // truncated sequence
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // above U+10FFFF
            ([0x22, 0xFF, 0x22], 1),
            ([0x22, 0x5C, 0x6E, 0xC3, 0xA9, 0xC3, 0x22], 5),  // invalid after an escape
            ([0x5B, 0xC3, 0xA9, 0x5D], 1),  // non-ASCII outside a string
        ] as [([UInt8], Int)])
    func rejectsInvalidUTF8(bytes: [UInt8], offset: Int) {
        #expect(error(parseBytes(bytes))?.offset == offset)
    }

    @Test func errorDescriptionNamesTheByte() {
        let failure = error(parse("{\"a\":1,\"b\":2,\"a\":3}"))
        #expect(failure?.description == "byte 13: duplicate member name \"a\"")
    }

    @Test func limitsNesting() throws {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try parse(deep).get() }
        let tooDeep = "{\"a\":" + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}"
        let failure = error(parse(tooDeep))
        #expect(failure?.offset == 68)
        #expect(failure?.message == "nesting deeper than 64 levels")
        #expect(error(parse("[[[]]]", maxDepth: 2))?.offset == 2)
        #expect(throws: Never.self) { try parse("[[1]]", maxDepth: 2).get() }
        // A deep document does not crash the parser.
        #expect(error(parse(String(repeating: "[", count: 100_000)))?.offset == 64)
    }

    @Test func memberNamesCompareByBytes() throws {
        // "é" precomposed and decomposed are canonically equivalent but different JSON names.
        let value = try parse("{\"\\u00e9\":1,\"e\\u0301\":2}").get()
        #expect(value.objectValue?.count == 2)
        #expect(value.objectValue?["e\u{301}"] == 2)
        #expect(JSONValue.string("\u{e9}") != JSONValue.string("e\u{301}"))
    }

    @Test func findsDuplicatesWhateverTheirSpelling() throws {
        // Escaped and plain spellings of one name are the same name.
        #expect(error(parse(#"{"a":1,"\u0061":2}"#))?.message == "duplicate member name \"a\"")
        #expect(error(parse(#"{"\u0061":1,"a":2}"#))?.offset == 12)
        #expect(error(parse(#"{"caf\u00e9":1,"café":2}"#))?.message == "duplicate member name \"café\"")
        #expect(
            error(parse(#"{"long name past eight bytes":1,"long name past eight byteZ":2,"long name past eight bytes":3}"#))?.offset == 63)
        // Same length, different bytes; and precomposed against decomposed (no escapes).
        #expect(throws: Never.self) { try parse(#"{"cells":1,"style":2,"abcdefghi":3,"abcdefghj":4}"#).get() }
        #expect(try parse("{\"\u{e9}\":1,\"e\u{301}\":2}").get().objectValue?.count == 2)
        // Names of nested objects are checked only against their own siblings.
        #expect(throws: Never.self) { try parse(#"{"a":{"b":1,"c":{"b":2,"a":3}},"b":3,"c":[{"a":1}]}"#).get() }
        #expect(error(parse(#"{"k":{"k":{"k":1}},"j":{"k":1},"k":2}"#))?.offset == 31)
    }

    @Test func utf8ValidationAgreesWithTheStandardLibrary() {
        // The parser's own UTF-8 check is what rejects bad strings: it must accept exactly what
        // Swift's validating decoder accepts.
        var random = SplitMix64(seed: 99)
        let interesting: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
            0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        for _ in 0..<50_000 {
            let bytes = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                Bool.random(using: &random) ? interesting.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            }
            let ours = bytes.withUnsafeBufferPointer { firstInvalidUTF8($0) } == nil
            let standard = String(validating: bytes, as: UTF8.self) != nil
            #expect(ours == standard, "\(bytes.map { String($0, radix: 16) })")
            if ours != standard { return }
        }
    }

    @Test func findsDuplicatesInLargeObjects() {
        let members = (0..<100).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(throws: Never.self) { try parse("{\(members)}").get() }
        let failure = error(parse("{\(members),\"k42\":0}"))
        #expect(failure?.message == "duplicate member name \"k42\"")
    }

    @Test func parsesDataAndStrings() throws {
        #expect(try JSONValue(parsing: "[1]") == [1])
        #expect(try JSONValue(parsing: Data(#"{"a":"é"}"#.utf8)) == ["a": "é"])
        #expect(throws: JSONParseError(offset: 3, message: "unexpected end of input")) {
            try JSONValue(parsing: Data("[1,".utf8).dropFirst(0))
        }
    }
}
