import Foundation

/// The `--tokens FILE` format: one token a line, `TOKEN SCOPE[,SCOPE…]`; blank lines and `#`
/// comments (whole lines, or after the scopes) are ignored.
///
/// ```
/// # who            what
/// Zq3…feeder       write:orders        # the order feed
/// 9fK…dashboard    read:team-*,read:status
/// p0…ops           admin
/// ```
///
/// Tokens are RFC 6750 `b64token`s (letters, digits, `-._~+/`, then any `=`), so that a client
/// can send them in `Authorization: Bearer`; spaces after the commas are allowed. Errors name
/// the line and never repeat what is on it (a token pasted in the wrong place stays out of logs).
package enum TokenFile {
    package struct Entry: Sendable {
        package let token: String
        package let rights: Rights
        package let line: Int
    }

    /// Reads and parses the file at `path`.
    package static func load(path: String) throws(TokenFileError) -> [Entry] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TokenFileError(line: nil, message: "cannot read \(path): \((error as NSError).localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TokenFileError(line: nil, message: "\(path) is not UTF-8 text")
        }
        return try parse(text)
    }

    /// Parses the text of a tokens file. A file may hold no token at all (then only
    /// `--token`, if given, is accepted).
    package static func parse(_ text: String) throws(TokenFileError) -> [Entry] {
        var entries: [Entry] = []
        var lineOfToken: [String: Int] = [:]
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let number = index + 1
            let content = rawLine.prefix { $0 != "#" }.trimmingBlanks()
            guard !content.isEmpty else { continue }
            let token = String(content.prefix { !isBlank($0) })
            guard isBearerToken(token) else {
                throw TokenFileError(
                    line: number,
                    message: "the first field is not a bearer token "
                        + "(letters, digits, '-', '.', '_', '~', '+', '/', then any '=')")
            }
            let scopeText = content.dropFirst(token.count).trimmingBlanks()
            guard !scopeText.isEmpty else {
                throw TokenFileError(line: number, message: "the token has no scopes (give read:PATTERN, write:PATTERN or admin)")
            }
            var scopes: [Scope] = []
            for (position, piece) in scopeText.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
                // Blanks may follow a comma, nowhere else: "write:a admin" is a mistake, not "write:aadmin".
                let raw = piece.drop(while: isBlank)
                guard !raw.contains(where: isBlank) else {
                    throw TokenFileError(
                        line: number,
                        message: "scope \(position + 1) holds a space or tab: write the scopes as "
                            + "SCOPE[,SCOPE...], with blanks only after a comma")
                }
                guard let scope = Scope(String(raw)) else {
                    throw TokenFileError(
                        line: number,
                        message: "scope \(position + 1) is not read:PATTERN, write:PATTERN or admin "
                            + "(PATTERN: a list id, or a prefix ending in '*')")
                }
                scopes.append(scope)
            }
            if let earlier = lineOfToken[token] {
                throw TokenFileError(line: number, message: "the same token as on line \(earlier)")
            }
            lineOfToken[token] = number
            entries.append(Entry(token: token, rights: Rights(scopes: scopes), line: number))
        }
        return entries
    }

    /// A space, a tab, or the CR of a CRLF line end.
    private static func isBlank(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\r"
    }

    /// RFC 6750 `b64token`: `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
    package static func isBearerToken(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let body = bytes.prefix { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || "-._~+/".utf8.contains(byte)
        }
        return !body.isEmpty && bytes[body.count...].allSatisfy { $0 == UInt8(ascii: "=") }
    }
}

/// Why a tokens file was refused: the line (1-based) when one is to blame, and what is wrong.
package struct TokenFileError: Error, CustomStringConvertible {
    package let line: Int?
    package let message: String

    package var description: String { line.map { "line \($0): \(message)" } ?? message }
}

private extension Substring {
    /// Without leading and trailing spaces, tabs and CRs.
    func trimmingBlanks() -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }) else { return self[endIndex...] }
        return self[first...lastIndex(where: { !blank($0) })!]
    }
}
