import HTTPServer
import ListService

/// Entity tags: a list's version is its `ETag` (`"7"`); `If-Match` and `If-None-Match` name versions.
package enum Conditional {
    /// The strong `ETag` of a version.
    package static func etag(_ version: Int) -> String { "\"\(version)\"" }

    /// The `ETag` of another representation of a version (`"7-html"`), so caches never mix them.
    package static func etag(_ version: Int, variant: String) -> String { "\"\(version)-\(variant)\"" }

    /// The `If-Match` and `If-None-Match` of a write.
    /// - Throws: 400 for a header that is not `*` or a list of entity tags.
    package static func precondition(_ request: Request) throws -> WritePrecondition {
        WritePrecondition(ifMatch: try tags(request, "If-Match"), ifNoneMatch: try tags(request, "If-None-Match"))
    }

    /// A conditional header's `*` or entity tags (`"7"`, `W/"7"`), nil when absent or empty. The
    /// tag of a gzip answer names the same version (`"7-gzip"` is taken as `"7"`, `EntityTag.identity`).
    ///
    /// RFC 9110: `"*" / #entity-tag`, where an entity tag is `[W/]"…"` holding `%x21 / %x23-7E`
    /// (so a comma may sit inside the quotes), separated by commas and optional spaces.
    /// - Throws: 400 for anything else (obs-text, bytes past 0x7E, is refused too).
    package static func tags(_ request: Request, _ name: String) throws -> WritePrecondition.Tags? {
        guard let header = request.headers[name]?.trimmingSpaces, !header.isEmpty else { return nil }
        if header == "*" { return .any }
        guard let tags = entityTags(header) else {
            throw HTTPError(.badRequest, "\(name) must be * or entity tags such as \"7\", not \"\(header)\".")
        }
        return .tags(tags.map(EntityTag.identity))
    }

    /// The entity tags of a comma-separated list, as written (`W/` kept), or nil when malformed.
    package static func entityTags(_ text: String) -> [String]? {
        let bytes = Array(text.utf8)
        var tags: [String] = []
        var index = 0
        func skipSpaces() { while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 } }
        while true {
            skipSpaces()
            let start = index
            if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "W"), bytes[index + 1] == UInt8(ascii: "/") { index += 2 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            while index < bytes.count, bytes[index] == 0x21 || (0x23...0x7E).contains(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            tags.append(String(decoding: bytes[start..<index], as: UTF8.self))
            skipSpaces()
            if index == bytes.count { return tags }
            guard bytes[index] == UInt8(ascii: ",") else { return nil }
            index += 1
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    package var trimmingSpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
