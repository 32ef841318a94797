import Foundation
import ListModelTesting
import Testing

@testable import ListModel

private let awkwardScalars: [Unicode.Scalar] = [
    "\"", "\\", "/", "\u{0}", "\u{1f}", "\n", "\t", "\u{7f}", "é", "\u{2028}", "\u{2029}", "😀", "\u{FFFF}", "\u{10FFFF}", "a", " ",
]

private func randomString(_ rng: inout SplitMix64) -> String {
    var scalars = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 0...12, using: &rng) {
        if Bool.random(using: &rng) {
            scalars.append(awkwardScalars.randomElement(using: &rng)!)
        } else {
            scalars.append(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &rng)))
        }
    }
    return String(scalars)
}

private func randomNumber(_ rng: inout SplitMix64) -> Double {
    switch Int.random(in: 0..<4, using: &rng) {
    case 0: return Double(Int.random(in: -1_000_000...1_000_000, using: &rng))
    case 1: return Double.random(in: -1e6...1e6, using: &rng)
    case 2: return Double(Int64.random(in: -(1 << 53)...(1 << 53), using: &rng))
    default:
        while true {
            let value = Double(bitPattern: rng.next())
            if value.isFinite { return value }
        }
    }
}

private func randomValue(_ rng: inout SplitMix64, depth: Int) -> JSONValue {
    let kind = depth >= 4 ? Int.random(in: 0..<4, using: &rng) : Int.random(in: 0..<6, using: &rng)
    switch kind {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &rng))
    case 2: return .number(randomNumber(&rng))
    case 3: return .string(randomString(&rng))
    case 4: return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
    default:
        var object = JSONObject()
        for _ in 0..<Int.random(in: 0...5, using: &rng) { object[randomString(&rng)] = randomValue(&rng, depth: depth + 1) }
        return .object(object)
    }
}

@Suite struct JSONRoundTripTests {
    @Test func randomValuesRoundTripCanonically() throws {
        var rng = SplitMix64(seed: 20261121)
        for _ in 0..<2_000 {
            let value = randomValue(&rng, depth: 0)
            let bytes = value.serialized()
            let parsed = try JSONValue(parsing: bytes)
            #expect(parsed == value, "\(String(decoding: bytes, as: UTF8.self))")
            #expect(parsed.serialized() == bytes)
            // Another parser agrees that the output is JSON.
            #expect(throws: Never.self) {
                try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
            }
        }
    }

    @Test func randomBytesNeverCrashTheParser() {
        var rng = SplitMix64(seed: 7)
        let alphabet = Array(#"{}[]",:0123456789-+.eEtruefalsn \u\\"#.utf8) + [0xC3, 0xA9, 0xED, 0xA0, 0x80, 0xFF, 0x00]
        var accepted = 0
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...16, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            if let value = try? JSONValue(parsing: bytes) {
                accepted += 1
                // Whatever is accepted must be JSON to another parser too, and reserialize stably.
                #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) }
                #expect((try? JSONValue(parsing: value.serialized())) == value)
            }
        }
        #expect(accepted > 0)
    }
}
