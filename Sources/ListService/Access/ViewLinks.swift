import Crypto
import Foundation

/// Signed, expiring links to one list: `/lists/{id}?key=EXPIRY.MAC` grants `read` on that list
/// until EXPIRY (Unix seconds), and an edit link's `key=EXPIRY.w.MAC` grants `write` (and so
/// `read`), where MAC is the HMAC-SHA256 of the right, the list id and the expiry under the
/// server's secret, base64url without padding.
///
/// Nothing is stored per link: a link is valid exactly while its MAC matches and its expiry
/// has not passed. Changing the secret (`--secret`) revokes every link at once.
package struct ViewLinks: Sendable {
    /// `expires` when the request leaves it out: 7 days.
    package static let defaultLifetime = 7 * 24 * 3600
    /// The longest `expires` accepted: 365 days.
    package static let maxLifetime = 365 * 24 * 3600

    /// What a link grants on its list.
    package enum Right: String, Sendable, Equatable {
        case read
        /// `write`, which includes `read`.
        case write
    }

    package enum Verdict: Equatable {
        /// Signed by this server for this list and still current: it grants `right`.
        case valid(Right)
        /// Signed by this server for this list, but its time is over.
        case expired
        /// Malformed, altered, signed with another secret, or for another list.
        case invalid
    }

    private let secret: SymmetricKey

    package init(secret: [UInt8]) {
        self.secret = SymmetricKey(data: secret)
    }

    /// The `key` of a link granting `right` on list `id` until `expiry` (Unix seconds).
    package func key(for id: String, expiry: Int, right: Right = .read) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: message(id: id, expiry: expiry, right: right), using: secret)
        return "\(expiry)." + (right == .write ? "w." : "") + Base64URL.encode(Array(mac))
    }

    /// Whether `key` opens list `id` at `now` (Unix seconds). The MAC is compared in constant time.
    package func check(_ key: String, for id: String, now: Int) -> Verdict {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        let right: Right = parts.count == 3 && parts[1] == "w" ? .write : .read
        guard parts.count == (right == .write ? 3 : 2), (1...12).contains(parts[0].utf8.count),
            parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let expiry = Int(parts[0]), String(expiry) == parts[0],  // canonical: no leading zeros
            let mac = Base64URL.decode(parts[parts.count - 1]), mac.count == SHA256.byteCount
        else {
            return .invalid
        }
        guard
            HMAC<SHA256>.isValidAuthenticationCode(
                mac, authenticating: message(id: id, expiry: expiry, right: right),
                using: secret)
        else {
            return .invalid
        }
        return now < expiry ? .valid(right) : .expired
    }

    /// The expiry (Unix seconds) a well-formed `key` names; nil for any other text. Says
    /// nothing of whether the key is genuine: `check` first.
    package static func expiry(of key: String) -> Int? {
        guard let dot = key.firstIndex(of: "."), let expiry = Int(key[..<dot]), expiry >= 0 else { return nil }
        return expiry
    }

    /// What is signed: a label, the right, the list id and the expiry, NUL-separated (an id
    /// holds no NUL, so no two inputs share a message).
    private func message(id: String, expiry: Int, right: Right) -> [UInt8] {
        Array("list-server view link\u{0}\(right.rawValue)\u{0}\(id)\u{0}\(expiry)".utf8)
    }
}

/// RFC 4648 section 5 base64url without padding.
package enum Base64URL {
    package static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// The bytes of `text`, or nil when it is not canonical unpadded base64url (unused low bits
    /// set count as not canonical, so no two texts decode to the same bytes).
    package static func decode(_ text: Substring) -> [UInt8]? {
        guard
            text.utf8.allSatisfy({ byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            })
        else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let bytes = Data(base64Encoded: standard).map({ Array($0) }), encode(bytes) == text else { return nil }
        return bytes
    }
}
