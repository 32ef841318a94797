import ListModelTesting
import Testing

@testable import ListModel

@Suite struct CursorTests {
    /// base64url of `body` followed by its checksum: a cursor text with any content.
    func sealed(_ body: [UInt8]) -> String {
        let sum = fnv1a32(body)
        return base64URLEncoded(
            body + [
                UInt8(sum >> 24), UInt8((sum >> 16) & 0xFF), UInt8((sum >> 8) & 0xFF),
                UInt8(sum & 0xFF),
            ])
    }

    func body(version: UInt8 = 1, order: String = "a0V", row: String = "it", section: String = "eu") -> [UInt8] {
        let o = Array(order.utf8), r = Array(row.utf8), s = Array(section.utf8)
        return [version, UInt8(o.count >> 8), UInt8(o.count & 0xFF)] + o + [UInt8(r.count - 1)] + r
            + [UInt8(s.count >> 8), UInt8(s.count & 0xFF)] + s
    }

    @Test func roundTrips() throws {
        let rowKeys = ["it", "a/b?c=d&e#f", "é ünïcödé 🇮🇹", String(repeating: "x", count: 256), "k"]
        let orderKeys = ["a0", "a0V", "c000", "A00000000000000000000000001", "b0" + String(repeating: "V", count: 1_000)]
        for (rowKey, sectionKey) in zip(rowKeys, [nil, "eu", "ünï/🇮🇹", String(repeating: "s", count: 256), "s"]) {
            for orderKey in orderKeys {
                let cursor = Cursor(orderKey: OrderKey(rawValue: orderKey), rowKey: rowKey, sectionKey: sectionKey)
                let text = cursor.encoded
                #expect(text.utf8.allSatisfy { $0.isBase64URL })
                #expect(text.utf8.count <= Cursor.maxEncodedLength)
                #expect(try Cursor(decoding: text) == cursor)
            }
        }
    }

    @Test func emptyTooLongAndForeignCharacters() {
        #expect(throws: CursorError.empty) { try Cursor(decoding: "") }
        #expect(throws: CursorError.tooLong) { try Cursor(decoding: String(repeating: "A", count: 2_068)) }
        let good = Cursor(orderKey: OrderKey(rawValue: "a0"), rowKey: "it").encoded
        for bad in ["+", "/", "=", " ", "%", "é", "\n"] {
            #expect(throws: CursorError.invalidCharacter(at: 0)) { try Cursor(decoding: good + bad) }
            #expect(throws: CursorError.invalidCharacter(at: 0)) { try Cursor(decoding: bad + good.dropFirst()) }
        }
        let error = #expect(throws: CursorError.self) { try Cursor(decoding: "AB=C") }
        #expect(error?.description == "the cursor has a character outside base64url at offset 2")
    }

    @Test func truncatedOrAlteredCursorsAreRejected() throws {
        let text = Cursor(orderKey: OrderKey(rawValue: "a0V"), rowKey: "italy").encoded
        #expect(throws: CursorError.invalidLength) { try Cursor(decoding: "A") }
        for length in 1..<text.count {
            #expect(throws: CursorError.self) { try Cursor(decoding: String(text.prefix(length))) }
        }
        #expect(throws: CursorError.truncated) { try Cursor(decoding: "AAAA") }
        // Every single-character change is caught (by the checksum or the strict decoding).
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var characters = Array(text)
        for index in characters.indices {
            let original = characters[index]
            for replacement in alphabet.prefix(20) where replacement != original {
                characters[index] = replacement
                #expect(throws: CursorError.self) { try Cursor(decoding: String(characters)) }
            }
            characters[index] = original
        }
        #expect(try Cursor(decoding: String(characters)).rowKey == "italy")
    }

    @Test func checksumVersionAndContent() throws {
        var bytes = body() + [0, 0, 0, 0]
        #expect(throws: CursorError.checksumMismatch) { try Cursor(decoding: base64URLEncoded(bytes)) }
        bytes = body()
        #expect(throws: CursorError.unsupportedVersion(3)) { try Cursor(decoding: sealed(body(version: 3))) }
        // Version 2 is a view's cursor (ViewCursor).
        #expect(throws: CursorError.otherView) { try Cursor(decoding: sealed(body(version: 2))) }
        let error = #expect(throws: CursorError.self) { try Cursor(decoding: sealed(body(version: 7))) }
        #expect(error?.description == "cursor version 7 is not supported")
        // Lengths that do not add up.
        #expect(throws: CursorError.malformed) { try Cursor(decoding: sealed(bytes + [0x41])) }
        #expect(throws: CursorError.malformed) { try Cursor(decoding: sealed(Array(bytes.dropLast()))) }
        #expect(throws: CursorError.malformed) { try Cursor(decoding: sealed([1, 0xFF, 0xFF, 0x61, 0x30, 0, 0x41, 0, 0])) }
        #expect(throws: CursorError.malformed) { try Cursor(decoding: sealed(body(section: "") + [0x41])) }
        #expect(throws: CursorError.malformed) { try Cursor(decoding: sealed(body(section: String(repeating: "s", count: 257)))) }
        // An order key that is not one, and a row key that is not UTF-8.
        #expect(throws: CursorError.malformed) { try Cursor(decoding: sealed(body(order: "a0V0"))) }
        #expect(throws: CursorError.malformed) { try Cursor(decoding: sealed(body(order: "a!"))) }
        var badUTF8 = body(row: "ab", section: "")
        badUTF8[badUTF8.count - 3] = 0xFF
        #expect(throws: CursorError.malformed) { try Cursor(decoding: sealed(badUTF8)) }
        badUTF8 = body(section: "ab")
        badUTF8[badUTF8.count - 1] = 0xC3
        #expect(throws: CursorError.malformed) { try Cursor(decoding: sealed(badUTF8)) }
        #expect(try Cursor(decoding: sealed(body())) == Cursor(orderKey: OrderKey(rawValue: "a0V"), rowKey: "it", sectionKey: "eu"))
        #expect(try Cursor(decoding: sealed(body(section: ""))).sectionKey == nil)
        // Non-zero unused bits: not the canonical spelling of the bytes.
        let text = sealed(bytes)
        if text.utf8.count % 4 != 0 {
            var characters = Array(text)
            characters[characters.count - 1] = characters.last == "B" ? "C" : "B"
            #expect(throws: CursorError.self) { try Cursor(decoding: String(characters)) }
        }
    }

    @Test func randomTextNeverCrashes() {
        var rng = SplitMix64(seed: 99)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var accepted = 0
        for round in 0..<20_000 {
            let text: String
            if round % 2 == 0 {
                text = String((0..<Int.random(in: 0...40, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            } else {
                let bytes = (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                text = round % 4 == 1 ? base64URLEncoded(bytes) : sealed(bytes)
            }
            if let cursor = try? Cursor(decoding: text) {
                accepted += 1
                #expect(cursor.encoded == text)
            }
        }
        // Random bytes almost never form a cursor; those that do must re-encode identically.
        #expect(accepted < 100)
    }
}

extension UInt8 {
    var isBase64URL: Bool {
        (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || (0x30...0x39).contains(self)
            || self == 0x2D || self == 0x5F
    }
}
