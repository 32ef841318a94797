/// Which lists a scope covers: one list id (`groceries`), or every id that starts with a
/// prefix (`team-*`; a lone `*` covers every list).
package struct ListPattern: Sendable, Equatable, CustomStringConvertible {
    /// The id, or the prefix without its `*`.
    package let text: String
    package let isPrefix: Bool

    /// Parses `raw`: a valid list id, or a (possibly empty) run of list-id characters ending in `*`.
    package init?(_ raw: String) {
        if raw.hasSuffix("*") {
            let prefix = String(raw.dropLast())
            guard prefix.utf8.count < 64, prefix.isEmpty || ListID.isValid(prefix) else { return nil }
            (text, isPrefix) = (prefix, true)
        } else {
            guard ListID.isValid(raw) else { return nil }
            (text, isPrefix) = (raw, false)
        }
    }

    package func matches(_ id: String) -> Bool {
        isPrefix ? id.utf8.starts(with: text.utf8) : id == text
    }

    package var description: String { isPrefix ? text + "*" : text }
}
