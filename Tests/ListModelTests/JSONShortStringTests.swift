import ListModelTesting
import Testing

@testable import ListModel

/// Big inputs reuse short strings through a cache; these check that every string still comes
/// back byte for byte, whatever collides in the cache or ends near the end of the input.
@Suite struct JSONShortStringTests {
    /// Short ASCII strings that differ in one byte, in length, or only past the eighth byte.
    private func nearMisses(_ rng: inout SplitMix64) -> [String] {
        var strings: [String] = []
        for length in 0...16 {
            let base = String((0..<length).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0x61...0x7A, using: &rng))) })
            strings.append(base)
            strings.append(base + "x")
            if length > 0 {
                var bytes = Array(base.utf8)
                bytes[length - 1] ^= 1
                strings.append(String(decoding: bytes, as: UTF8.self))
                bytes[0] ^= 2
                strings.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        return strings
    }

    @Test func repeatedAndNearlyEqualShortStringsParseExactly() throws {
        var rng = SplitMix64(seed: 7)
        var rows: [JSONValue] = []
        for round in 0..<300 {
            var object = JSONObject()
            let strings = nearMisses(&rng)
            for (index, string) in strings.enumerated() where object[string] == nil {
                object[string] = .string(strings[(index + round) % strings.count])
            }
            rows.append(.object(object))
        }
        let value = JSONValue.array(rows)
        let bytes = value.serialized()
        #expect(bytes.count > 100_000)
        let parsed = try JSONValue(parsing: bytes)
        #expect(parsed == value)
        #expect(parsed.serialized() == bytes)
    }

    @Test func shortStringsAtTheVeryEndOfABigInput() throws {
        let padding = String(repeating: "p", count: 5_000)
        for tail in ["", "a", "abcdefg", "abcdefgh", "abcdefghijklmno", "abcdefghijklmnop"] {
            let text = #"[""# + padding + #"",""# + tail + #"",""# + tail + #""]"#
            let parsed = try JSONValue(parsing: text)
            #expect(parsed == .array([.string(padding), .string(tail), .string(tail)]))
        }
    }

    @Test func duplicateShortNamesAreStillRejectedInBigInputs() {
        let filler = String(repeating: #"{"key":"value","other":"x"},"#, count: 200)
        let text = "[" + filler + #"{"key":1,"kex":2,"key":3}]"#
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }
}
