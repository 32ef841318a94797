/// Keeps secrets that travel in URLs out of log lines.
enum LogRedaction {
    /// `target` with the value of every parameter whose name is in `names` replaced by
    /// `REDACTED`; the rest stays as sent.
    ///
    /// Names compare case-insensitively after percent-decoding (up to three times, so `%2553`
    /// is no way around it), and a parameter is whatever follows a `?`, `&` or `;` anywhere in
    /// the target (so `/lists/a;key=…` and `?a=1;key=…` are caught too), whether or not the
    /// server would accept it there. A parameter whose `=` is itself encoded (`key%3D…`) is
    /// replaced whole.
    static func target(_ target: String, hiding names: Set<String>) -> String {
        guard !names.isEmpty, target.utf8.contains(where: isSeparator) else { return target }
        let hidden = Set(names.map { $0.lowercased() })
        var out = ""
        var segmentStart = target.startIndex
        var afterSeparator = false
        for index in target.utf8.indices where isSeparator(target.utf8[index]) {
            let segment = target[segmentStart..<index]
            out += afterSeparator ? redact(segment, hidden) : String(segment)
            out += String(target[index..<target.utf8.index(after: index)])
            afterSeparator = true
            segmentStart = target.utf8.index(after: index)
        }
        out += redact(target[segmentStart...], hidden)
        return out
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "?") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: ";")
    }

    /// One parameter (`name=value`, or a bare name), redacted when its name is hidden.
    private static func redact(_ item: Substring, _ hidden: Set<String>) -> String {
        let rawName = item.prefix { $0 != "=" }
        let decodedName = decodedLowercase(rawName)
        if hidden.contains(decodedName) { return String(rawName) + "=REDACTED" }
        // An encoded '=' hides the name inside the "name": `key%3Dsecret`.
        if let equals = decodedName.firstIndex(of: "="), hidden.contains(String(decodedName[..<equals])) {
            return "REDACTED"
        }
        return String(item)
    }

    /// `text` percent-decoded until it no longer changes (three times at most), lowercased.
    private static func decodedLowercase(_ text: Substring) -> String {
        var current = String(text)
        for _ in 0..<3 {
            guard let decoded = PercentDecoding.decodeQueryComponent(Substring(current)), decoded != current else { break }
            current = decoded
        }
        return current.lowercased().trimmingSpaces
    }
}
