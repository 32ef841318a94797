/// The `If-Match` / `If-None-Match` conditions of a write (RFC 9110 section 13), checked by
/// the registry against the list's version under the list's write lock.
package struct WritePrecondition: Sendable, Equatable {
    /// A header's value: `*`, or a list of entity tags as sent.
    package enum Tags: Sendable, Equatable {
        case any
        case tags([String])
    }

    package var ifMatch: Tags?
    package var ifNoneMatch: Tags?

    package init(ifMatch: Tags? = nil, ifNoneMatch: Tags? = nil) {
        self.ifMatch = ifMatch
        self.ifNoneMatch = ifNoneMatch
    }

    package static let none = WritePrecondition()

    /// Why the write may not go ahead for a list at `version` (nil: no list), or nil when it may.
    /// - Parameter subject: what the version is of, for the message: "the list", or a row's
    ///   "row \"k\"" (row endpoints compare the row's version).
    package func failure(version: Int?, subject: String = "the list") -> String? {
        let current = version.map { "\"\($0)\"" }
        switch ifMatch {
        case nil: break
        case .any:
            if current == nil { return "If-Match: * needs \(subject) to exist, and it does not." }
        case .tags(let tags):
            // Strong comparison: a weak tag never matches (RFC 9110 section 13.1.1).
            guard let current, tags.contains(current) else {
                return "If-Match names \(tags.joined(separator: ", ")), but "
                    + (version.map { "\(subject) is at version \($0)" } ?? "\(subject) does not exist") + "."
            }
        }
        switch ifNoneMatch {
        case nil: break
        case .any:
            if let version { return "If-None-Match: * asks to create, but \(subject) exists (version \(version))." }
        case .tags(let tags):
            // Weak comparison: W/"7" names version 7 too (RFC 9110 section 13.1.2).
            if let current, tags.contains(where: { $0 == current || $0 == "W/" + current }) {
                return "If-None-Match names the current version \(version!) of \(subject)."
            }
        }
        return nil
    }
}
