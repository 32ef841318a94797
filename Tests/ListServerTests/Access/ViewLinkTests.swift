import Crypto
import ListServerTesting
import Testing

@testable import ListServerHTTP
@testable import ListService

@Suite("View links")
struct ViewLinkTests {
    private let links = ViewLinks(secret: Array("a secret of at least thirty-two bytes".utf8))

    @Test func aKeyOpensItsListUntilItExpires() {
        let key = links.key(for: "groceries", expiry: 2_000)
        #expect(links.check(key, for: "groceries", now: 1_999) == .valid(.read))
        #expect(links.check(key, for: "groceries", now: 2_000) == .expired)
        #expect(links.check(key, for: "groceries2", now: 1_000) == .invalid)
        #expect(links.check(key, for: "grocerie", now: 1_000) == .invalid)
    }

    @Test func theKeyIsURLSafeAndNamesItsExpiry() {
        let key = links.key(for: "groceries", expiry: 1_767_225_600)
        #expect(key.hasPrefix("1767225600."))
        #expect(key.utf8.count == 11 + 43)
        #expect(
            key.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "-_.".utf8.contains(byte)
            })
    }

    @Test func theMACIsHMACSHA256OfRightIdAndExpiry() {
        let secret = Array("a secret of at least thirty-two bytes".utf8)
        let mac = HMAC<SHA256>.authenticationCode(
            for: Array("list-server view link\u{0}read\u{0}a\u{0}99".utf8),
            using: SymmetricKey(data: secret))
        #expect(links.key(for: "a", expiry: 99) == "99." + Base64URL.encode(Array(mac)))
    }

    @Test func everyAlteredKeyIsInvalid() {
        let key = links.key(for: "a", expiry: 5_000)
        var altered: [String] = []
        let characters = Array(key)
        for index in characters.indices {
            for replacement in ["A", "z", "0", "_", "-"] where String(characters[index]) != replacement {
                var copy = characters
                copy[index] = Character(replacement)
                altered.append(String(copy))
            }
        }
        altered += [
            "", ".", key + "A", String(key.dropLast()), "5001" + key.dropFirst(4), key.replacingOccurrences(of: ".", with: ""),
            "0005000" + key.dropFirst(4),
        ]
        for candidate in altered where candidate != key {
            #expect(links.check(candidate, for: "a", now: 0) == .invalid, "\(candidate)")
        }
    }

    @Test func anotherSecretSignsOtherKeys() {
        let other = ViewLinks(secret: Array("another secret, also long enough to use".utf8))
        #expect(other.check(links.key(for: "a", expiry: 10), for: "a", now: 0) == .invalid)
    }

    @Test func base64URLRoundTripsAndRefusesNonCanonicalText() {
        for count in 0..<40 {
            let bytes = (0..<count).map { UInt8(($0 * 37 + count) & 0xFF) }
            #expect(Base64URL.decode(Substring(Base64URL.encode(bytes))) == bytes)
        }
        #expect(Base64URL.decode("AB") == nil)  // the unused low bits of "B" are set
        #expect(Base64URL.decode("AA") == [0])
        #expect(Base64URL.decode("AA==") == nil)
        #expect(Base64URL.decode("A+") == nil)
    }
}
