import Testing

@testable import ListModel

private func text(_ value: JSONValue) -> String { String(decoding: value.serialized(), as: UTF8.self) }

@Suite struct JSONSerializerTests {
    @Test(
        arguments: [
            (0.0, "0"), (-0.0, "0"), (3.0, "3"), (-42.0, "-42"), (58.9, "58.9"), (0.1, "0.1"),
            (9007199254740992.0, "9007199254740992"), (-9007199254740992.0, "-9007199254740992"),
            (9007199254740994.0, "9.007199254740994e+15"), (1e20, "1e+20"), (1e-7, "1e-07"),
            (1.5e300, "1.5e+300"), (.leastNonzeroMagnitude, "5e-324"), (123.456, "123.456"),
            (Double.infinity, "null"), (Double.nan, "null"),
        ] as [(Double, String)])
    func formatsNumbers(number: Double, expected: String) throws {
        #expect(text(.number(number)) == expected)
        if number.isFinite {
            #expect(try JSONValue(parsing: Array(expected.utf8)) == .number(number))
        }
    }

    @Test func escapesStringsMinimally() {
        #expect(text("a\"b\\c/d") == #""a\"b\\c/d""#)
        #expect(text("\n\r\t\u{8}\u{c}\u{0}\u{1f}") == #""\n\r\t\b\f\u0000\u001F""#)
        #expect(text("é 😀 <\u{7f}>") == "\"é 😀 <\u{7f}>\"")
        #expect(text("x\u{2028}y\u{2029}z\u{2027}") == "\"x\\u2028y\\u2029z\u{2027}\"")
    }

    @Test func writesCanonicalForm() {
        let value: JSONValue = ["b": [1, 2.5, nil, true], "a": ["": "", "x": [:]], "c": []]
        #expect(text(value) == #"{"b":[1,2.5,null,true],"a":{"":"","x":{}},"c":[]}"#)
    }

    @Test func appendsToExistingBytes() {
        var out = Array("data: ".utf8)
        JSONValue.array([1, "a"]).serialize(into: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"data: [1,"a"]"#)
    }

    @Test(arguments: [
        #"{"title":"Countries","sections":[{"key":"eu","rows":[{"key":"it","cells":{"pop":58.9}}]}]}"#,
        #"["\u0000\"\\é😀\u2028",-1.5e-10,1e+300,[[[]]],{"":{"":null}}]"#,
        #"[0,-1,9007199254740992,0.1,1.7976931348623157e+308]"#,
    ])
    func roundTrips(canonical: String) throws {
        let value = try JSONValue(parsing: Array(canonical.utf8))
        #expect(text(value) == canonical)
        #expect(try JSONValue(parsing: value.serialized()) == value)
    }

    @Test func reformatsNonCanonicalInput() throws {
        let value = try JSONValue(parsing: Array(#" { "a" : [ 1.0 , 2e0, -0.0, "\u0041\/" ] } "#.utf8))
        #expect(text(value) == #"{"a":[1,2,0,"A/"]}"#)
    }

    @Test func equalityIgnoresMemberOrderAndNumberForm() throws {
        let a = try JSONValue(parsing: Array(#"{"a":1,"b":{"x":[1.0,2],"y":null}}"#.utf8))
        let b = try JSONValue(parsing: Array(#"{"b":{"y":null,"x":[1,2e0]},"a":1.0}"#.utf8))
        #expect(a == b)
        #expect(a != (try JSONValue(parsing: Array(#"{"a":1,"b":{"x":[2,1],"y":null}}"#.utf8))))
        #expect(JSONValue.number(1) != JSONValue.string("1"))
    }
}

@Suite struct JSONLargeValueTests {
    /// A list-shaped value big enough to make the writer grow many times.
    static let big: JSONValue = .array(
        (0..<3_000).map { index in
            [
                "key": .string("row-\(index)"),
                "cells": [
                    "name": .string("Zürich \"Old Town\"\n\(index) 😀\u{2028}"),
                    "pop": .number(Double(index) / 7),
                    "flag": ["src": .string("/img/\(index).png"), "alt": ""],
                ],
                "href": index % 2 == 0 ? nil : .string("/items/\(index)"),
            ]
        })

    @Test func roundTripsAndAppends() throws {
        let bytes = Self.big.serialized()
        #expect(bytes.count > 300_000)
        #expect(try JSONValue(parsing: bytes) == Self.big)
        var out = Array("prefix".utf8)
        Self.big.serialize(into: &out)
        #expect(out.count == bytes.count + 6)
        #expect(Array(out.dropFirst(6)) == bytes)
    }
}
