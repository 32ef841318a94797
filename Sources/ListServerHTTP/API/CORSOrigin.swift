import ListService

/// The form of an origin given to `--cors-origin`.
package enum CORSOrigin {
    /// Whether `origin` is `http://` or `https://` followed by a host (letters, digits, `.`, `-`,
    /// or a bracketed IPv6 literal) and an optional `:port`, exactly as browsers send `Origin`.
    package static func isValid(_ origin: String) -> Bool {
        let rest: Substring
        if origin.hasPrefix("https://") {
            rest = origin.dropFirst(8)
        } else if origin.hasPrefix("http://") {
            rest = origin.dropFirst(7)
        } else {
            return false
        }
        var host = rest
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            let port = rest[rest.index(after: colon)...]
            guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCIIDigit), Int(port)! <= 65535 else { return false }
            host = rest[..<colon]
        }
        if host.hasPrefix("[") {
            return host.hasSuffix("]") && host.count > 2
                && host.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        return !host.isEmpty && host.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "." || $0 == "-" }
    }
}

extension Character {
    package var isASCIIDigit: Bool { isASCII && isNumber }
}
