/// Entity tags (RFC 9110 section 8.8.3) as the HTTP layer handles them: the tag of a content
/// coding's answer, and `If-None-Match` on reads.
public enum EntityTag {
    /// What the gzip answer's tag adds to the identity answer's (`"7"` → `"7-gzip"`): a strong
    /// validator must differ between content codings (RFC 9110 section 8.8.3).
    public static let gzipSuffix = "-gzip"

    /// The tag of `tag`'s answer in gzip (`"7"` → `"7-gzip"`, `W/"7"` → `W/"7-gzip"`); a
    /// malformed tag is returned as it is.
    public static func gzip(_ tag: String) -> String {
        guard tag.hasSuffix("\""), tag.utf8.count >= 2 else { return tag }
        return String(tag.dropLast()) + gzipSuffix + "\""
    }

    /// The identity answer's tag of a tag that may name the gzip answer (`"7-gzip"` → `"7"`),
    /// for preconditions that name a version whichever coding the client read it from.
    public static func identity(_ tag: String) -> String {
        let suffix = gzipSuffix + "\""
        guard tag.hasSuffix(suffix), tag.utf8.count > suffix.utf8.count + 1 else { return tag }
        return String(tag.dropLast(suffix.count)) + "\""
    }

    /// Whether an `If-None-Match` value names `tag` (weak comparison, RFC 9110 section 13.1.2:
    /// `W/` ignored) or is `*`. Leading and trailing spaces and tabs of each element are ignored;
    /// a malformed value simply does not match.
    public static func noneMatchNames(_ header: String, _ tag: String) -> Bool {
        let wanted = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
        for element in header.split(separator: ",") {
            var candidate = Substring(element.trimmingOWS())
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate = candidate.dropFirst(2) }
            if candidate == wanted { return true }
        }
        return false
    }
}
