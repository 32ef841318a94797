/// `--base-url`: where clients reach the server behind a proxy (`https://lists.example.com`, or
/// with a path prefix the proxy maps to `/`). View and edit links are made on it instead of the
/// request's `Host`.
package enum BaseURL {
    /// The base URL without its trailing slashes, or why it is not one: an absolute `http` or
    /// `https` URL with a host, and no user, query, fragment, space or control character.
    package static func validated(_ text: String) -> Result<String, BaseURLError> {
        let lower = text.lowercased()
        guard let scheme = ["https://", "http://"].first(where: lower.hasPrefix) else {
            return .failure(BaseURLError("must start with http:// or https://"))
        }
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .failure(BaseURLError("must be ASCII with no space or control character (percent-encode the rest)"))
        }
        guard !text.contains("?"), !text.contains("#") else { return .failure(BaseURLError("must have no query or fragment")) }
        let rest = text.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" }
        guard !authority.isEmpty, !authority.contains("@"), authority.first != ":" else {
            return .failure(BaseURLError("must name a host (and no user)"))
        }
        var trimmed = Substring(text)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return .success(String(trimmed))
    }
}

/// Why a `--base-url` was refused.
package struct BaseURLError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
