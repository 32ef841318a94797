import Synchronization

/// What the server remembers of the 200s it sent for `Response.validated` answers, so that a
/// request already holding one gets its 304 without the answer being made again (rendering a
/// page of 500 rows, compressing it) just to learn its length.
///
/// An entry is keyed by the request target, the coding chosen (gzip or not) and the handler's
/// identity `ETag` (the version and representation it names, `"7-rows"` or `"7-rows-html"`), and
/// holds the tag as sent (`-gzip` added), the body length and the fields a 304 repeats, less
/// the CORS fields (added per request). A new version names another tag, so it misses and the
/// answer is made. Bounded: when full it is emptied (entries are cheap to make again).
final class NotModifiedMemo: Sendable {
    struct Key: Hashable, Sendable {
        let target: String
        let gzip: Bool
        let identityTag: String
    }

    static let capacity = 4096
    /// The 304s to send (status, fields, `notModifiedLength`), without CORS fields.
    private let entries = Mutex<[Key: Response]>([:])

    /// The 304 for a request holding the answer the memo knows for `key`: when `If-None-Match`
    /// names the tag that was sent.
    func notModified(_ key: Key, ifNoneMatch: String?) -> Response? {
        guard let ifNoneMatch, let notModified = entries.withLock({ $0[key] }),
            let sent = notModified.headers["ETag"], EntityTag.noneMatchNames(ifNoneMatch, sent)
        else { return nil }
        return notModified
    }

    /// Remembers the 200 `response` (as sent, shaped) of a `validated` answer.
    func remember(_ key: Key, response: Response) {
        guard response.status == .ok, response.headers["ETag"] != nil, let length = response.bodyBytes?.count else { return }
        var notModified = Response(status: .notModified, headers: HTTPServer.notModifiedFields(of: response.headers, cors: false))
        notModified.notModifiedLength = length
        entries.withLock { entries in
            if entries.count >= Self.capacity && entries[key] == nil { entries.removeAll(keepingCapacity: true) }
            entries[key] = notModified
        }
    }

    var count: Int { entries.withLock { $0.count } }
}
