extension HTMLWriter {
    /// Whether a browser following `url` would stay on an allowed scheme.
    ///
    /// Relative URLs and `http:`, `https:`, `mailto:` (any case) are safe. The check reads the URL
    /// the way a browser does: leading and trailing C0 controls and spaces are trimmed and tabs and
    /// newlines anywhere are ignored, so `" java\tscript:…"` counts as `javascript:`. ListModel
    /// validation rejects the rest already; this is the renderer's second line of defence.
    public static func isSafeURL(_ url: String) -> Bool {
        isSafeURL(utf8: url.utf8)
    }

    /// `isSafeURL` of a URL given as UTF-8 bytes.
    @inline(__always)
    static func isSafeURL(utf8 url: some Sequence<UInt8>) -> Bool {
        // The scheme's letters, lowercased, packed into a word: no allocation on this hot path.
        var scheme: UInt64 = 0
        var schemeLength = 0
        var started = false
        for byte in url {
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if !started {
                if byte <= 0x20 { continue }
                guard isASCIILetter(byte) else { return true }  // no scheme: relative
                started = true
            }
            switch byte {
            case 0x3A:  // ":" ends the scheme
                return (schemeLength == 4 && scheme == pack("http")) || (schemeLength == 5 && scheme == pack("https"))
                    || (schemeLength == 6 && scheme == pack("mailto"))
            case _ where isASCIILetter(byte) || (0x30...0x39).contains(byte) || byte == 0x2B || byte == 0x2D || byte == 0x2E:
                schemeLength += 1
                if schemeLength <= 8 { scheme = scheme << 8 | UInt64(byte | 0x20) }
            default:
                return true  // "/", "?", "#" or any other byte before ":": a relative URL
            }
        }
        return true
    }

    /// The lowercase ASCII `word` packed as `isSafeURL` packs a scheme.
    private static func pack(_ word: StaticString) -> UInt64 {
        var packed: UInt64 = 0
        for offset in 0..<word.utf8CodeUnitCount { packed = packed << 8 | UInt64(word.utf8Start[offset]) }
        return packed
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
    }

    /// Appends `segment` percent-encoded for a URL path: everything but unreserved characters
    /// (`A-Z a-z 0-9 - . _ ~`) becomes `%XX`.
    mutating func pathSegment(_ segment: String) {
        let hex: StaticString = "0123456789ABCDEF"
        for unit in segment.utf8 {
            switch unit {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E:
                byte(unit)
            default:
                byte(0x25)
                byte(hex.utf8Start[Int(unit >> 4)])
                byte(hex.utf8Start[Int(unit & 0x0F)])
            }
        }
    }
}
