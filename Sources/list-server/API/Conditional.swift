import HTTPServer

/// Entity tags: a list's version is its `ETag` (`"7"`); `If-Match` and `If-None-Match` name versions.
enum Conditional {
    /// The strong `ETag` of a version.
    static func etag(_ version: Int) -> String { "\"\(version)\"" }

    /// The `ETag` of another representation of a version (`"7-html"`), so caches never mix them.
    static func etag(_ version: Int, variant: String) -> String { "\"\(version)-\(variant)\"" }

    /// The version a write requires, from `If-Match`; nil when the header is absent or `*`.
    /// - Throws: 400 when the header names no version we could have issued.
    static func requiredVersion(_ request: Request) throws -> Int? {
        guard let header = request.headers["If-Match"]?.trimmingSpaces, header != "*" else { return nil }
        guard let tag = header.split(separator: ",").first.map({ String($0).trimmingSpaces }),
              tag.hasPrefix("\""), tag.hasSuffix("\""), tag.count >= 3,
              let version = Int(tag.dropFirst().dropLast()), version >= 0 else {
            throw HTTPError(.badRequest, "If-Match must name one version as an entity tag, e.g. If-Match: \"7\".")
        }
        return version
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
