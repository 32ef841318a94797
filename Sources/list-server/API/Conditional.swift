import HTTPServer

/// Entity tags: a list's version is its `ETag` (`"7"`); `If-Match` and `If-None-Match` name versions.
enum Conditional {
    /// The strong `ETag` of a version.
    static func etag(_ version: Int) -> String { "\"\(version)\"" }

    /// The `ETag` of another representation of a version (`"7-html"`), so caches never mix them.
    static func etag(_ version: Int, variant: String) -> String { "\"\(version)-\(variant)\"" }

    /// The `If-Match` and `If-None-Match` of a write.
    /// - Throws: 400 for a header that is not `*` or a list of entity tags.
    static func precondition(_ request: Request) throws -> WritePrecondition {
        WritePrecondition(ifMatch: try tags(request, "If-Match"), ifNoneMatch: try tags(request, "If-None-Match"))
    }

    /// A conditional header's `*` or entity tags (`"7"`, `W/"7"`), nil when absent.
    static func tags(_ request: Request, _ name: String) throws -> WritePrecondition.Tags? {
        guard let header = request.headers[name]?.trimmingSpaces, !header.isEmpty else { return nil }
        if header == "*" { return .any }
        let tags = header.split(separator: ",").map { String($0).trimmingSpaces }
        for tag in tags {
            let opaque = tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
            guard opaque.count >= 2, opaque.hasPrefix("\""), opaque.hasSuffix("\""), !opaque.dropFirst().dropLast().contains("\"") else {
                throw HTTPError(.badRequest, "\(name) must be * or entity tags such as \"7\", not \(header).")
            }
        }
        return .tags(tags)
    }

    /// Whether `If-None-Match` already names `etag` (answer 304).
    static func isFresh(_ request: Request, etag: String) -> Bool {
        guard let header = request.headers["If-None-Match"] else { return false }
        for candidate in header.split(separator: ",") {
            var tag = String(candidate).trimmingSpaces
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == etag { return true }
        }
        return false
    }

    /// The 304 answer for `etag`.
    static func notModified(etag: String) -> Response {
        Response(status: .notModified, headers: ["ETag": etag])
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
