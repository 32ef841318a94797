import Synchronization

/// What the server remembers of the 200s it sent for `Response.validated` answers, so that a
/// request already holding one gets its 304 without the answer being made again (rendering a
/// page of 500 rows, compressing it) just to learn its length.
///
/// An entry is keyed by the request target and the coding chosen (gzip or not), and holds the
/// handler's identity `ETag` (the version it names), the tag as sent (`-gzip` added), the body
/// length and the fields a 304 repeats, less the CORS fields (added per request). It is used
/// only while the handler still names the same identity tag: a new version misses and the
/// answer is made. Bounded: when full it is emptied (entries are cheap to make again).
final class NotModifiedMemo: Sendable {
    struct Key: Hashable, Sendable {
        let target: String
        let gzip: Bool
    }

    struct Entry: Sendable {
        let identityTag: String
        /// The 304 to send (status, fields, `notModifiedLength`), without CORS fields.
        let notModified: Response
    }

    static let capacity = 4096
    private let entries = Mutex<[Key: Entry]>([:])

    /// The 304 for a request holding the answer the memo knows for `key`, if the handler still
    /// names `identityTag` and `If-None-Match` names the tag that was sent.
    func notModified(_ key: Key, identityTag: String, ifNoneMatch: String?) -> Response? {
        guard let ifNoneMatch, let entry = entries.withLock({ $0[key] }), entry.identityTag == identityTag,
              let sent = entry.notModified.headers["ETag"], EntityTag.noneMatchNames(ifNoneMatch, sent) else { return nil }
        return entry.notModified
    }

    /// Remembers the 200 `response` (as sent, shaped) of a `validated` answer.
    func remember(_ key: Key, identityTag: String, response: Response) {
        guard response.status == .ok, response.headers["ETag"] != nil, let length = response.bodyBytes?.count else { return }
        var headers = HTTPHeaders()
        for field in response.headers where HTTPServer.notModifiedFields.contains(field.name.lowercased()) {
            headers.add(field.name, field.value)
        }
        var notModified = Response(status: .notModified, headers: headers)
        notModified.notModifiedLength = length
        let entry = Entry(identityTag: identityTag, notModified: notModified)
        entries.withLock { entries in
            if entries.count >= Self.capacity && entries[key] == nil { entries.removeAll(keepingCapacity: true) }
            entries[key] = entry
        }
    }

    var count: Int { entries.withLock { $0.count } }
}
