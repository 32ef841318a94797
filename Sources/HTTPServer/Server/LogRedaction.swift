/// Keeps secrets that travel in URLs out of log lines.
enum LogRedaction {
    /// `target` with the value of every query item whose (percent-decoded) name is in `names`
    /// replaced by `REDACTED`; the rest stays as sent.
    static func target(_ target: String, hiding names: Set<String>) -> String {
        guard !names.isEmpty, let question = target.firstIndex(of: "?") else { return target }
        var changed = false
        let items = target[target.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            let name = item.prefix { $0 != "=" }
            guard names.contains(PercentDecoding.decodeQueryComponent(name) ?? String(name)) else { return String(item) }
            changed = true
            return String(name) + "=REDACTED"
        }
        return changed ? String(target[...question]) + items.joined(separator: "&") : target
    }
}
