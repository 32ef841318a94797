/// What a request's `Accept-Encoding` allows (RFC 9110 section 12.5.3).
public enum AcceptEncoding {
    /// Whether the client accepts `gzip`: it names `gzip` (or the old `x-gzip`) with a q-value
    /// above 0, or names neither and lists `*` above 0. `gzip;q=0` means no, whatever `*` says;
    /// an element with a malformed q-value counts as not acceptable; no header means identity.
    public static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var gzip: Double?
        var wildcard: Double?
        for element in header.split(separator: ",") {
            let parts = element.split(separator: ";")
            guard let name = parts.first.map({ $0.trimmingOWS().lowercased() }), !name.isEmpty else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingOWS() }
                guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
                q = qValue(pair[1]) ?? 0
            }
            switch name {
            case "gzip", "x-gzip": gzip = max(gzip ?? 0, q)
            case "*": wildcard = max(wildcard ?? 0, q)
            default: break
            }
        }
        if let gzip { return gzip > 0 }
        return (wildcard ?? 0) > 0
    }

    /// A qvalue as RFC 9110 writes it: `0`, `0.` and up to three digits, `1`, or `1.` and up to
    /// three zeros; nil for anything else.
    static func qValue(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        if bytes.count == 1 { return first == UInt8(ascii: "1") ? 1 : 0 }
        guard bytes[1] == UInt8(ascii: "."), bytes.count <= 5 else { return nil }
        let decimals = bytes[2...]
        guard decimals.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        if first == UInt8(ascii: "1") { return decimals.allSatisfy { $0 == UInt8(ascii: "0") } ? 1 : nil }
        return Double(text)
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingOWS() -> String {
        let scalars: Set<Unicode.Scalar> = [" ", "\t"]
        var slice = self.unicodeScalars[...]
        while let first = slice.first, scalars.contains(first) { slice.removeFirst() }
        while let last = slice.last, scalars.contains(last) { slice.removeLast() }
        return String(String.UnicodeScalarView(slice))
    }
}
