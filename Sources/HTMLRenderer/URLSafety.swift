extension HTMLWriter {
    /// Whether a browser following `url` would stay on an allowed scheme.
    ///
    /// Relative URLs and `http:`, `https:`, `mailto:` (any case) are safe. The check reads the URL
    /// the way a browser does: leading and trailing C0 controls and spaces are trimmed and tabs and
    /// newlines anywhere are ignored, so `" java\tscript:…"` counts as `javascript:`. ListModel
    /// validation rejects the rest already; this is the renderer's second line of defence.
    public static func isSafeURL(_ url: String) -> Bool {
        var scheme: [UInt8] = []
        var started = false
        for byte in url.utf8 {
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if !started {
                if byte <= 0x20 { continue }
                started = true
            }
            switch byte {
            case 0x3A:  // ":" ends a scheme
                guard let first = scheme.first, isASCIILetter(first) else { return true }
                let lowered = String(decoding: scheme.map { $0 | 0x20 }, as: UTF8.self)
                return lowered == "http" || lowered == "https" || lowered == "mailto"
            case _ where isASCIILetter(byte) || (0x30...0x39).contains(byte)
                || byte == 0x2B || byte == 0x2D || byte == 0x2E:
                scheme.append(byte)
            default:
                return true  // "/", "?", "#" or any other byte before ":": a relative URL
            }
        }
        return true
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
    }

    /// Appends `segment` percent-encoded for a URL path: everything but unreserved characters
    /// (`A-Z a-z 0-9 - . _ ~`) becomes `%XX`.
    mutating func pathSegment(_ segment: String) {
        let hex: StaticString = "0123456789ABCDEF"
        for byte in segment.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E:
                bytes.append(byte)
            default:
                bytes.append(0x25)
                bytes.append(hex.utf8Start[Int(byte >> 4)])
                bytes.append(hex.utf8Start[Int(byte & 0x0F)])
            }
        }
    }
}
