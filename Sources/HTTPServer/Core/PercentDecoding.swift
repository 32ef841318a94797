/// Percent-decoding of request targets (RFC 3986): a malformed escape or bytes that are not
/// UTF-8 make the target invalid, in the path and in the query alike.
enum PercentDecoding {
    /// Decodes `%HH` escapes in one path segment. Returns nil for a malformed escape,
    /// bytes that are not UTF-8, or a decoded NUL (a path never legitimately holds one).
    /// `%2F` decodes to "/" inside the segment: callers split before decoding.
    static func decodeSegment(_ segment: Substring) -> String? {
        guard segment.utf8.contains(UInt8(ascii: "%")) else {
            return segment.utf8.contains(0) ? nil : String(segment)
        }
        guard let bytes = decode(segment.utf8, plusAsSpace: false), !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Decodes a query component: `+` is a space, `%HH` escapes are decoded. Returns nil for a
    /// malformed escape or bytes that are not UTF-8.
    static func decodeQueryComponent(_ component: Substring) -> String? {
        let utf8 = component.utf8
        guard utf8.contains(UInt8(ascii: "%")) || utf8.contains(UInt8(ascii: "+")) else { return String(component) }
        guard let bytes = decode(utf8, plusAsSpace: true) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Splits a raw query string into name/value pairs in order; a pair without "=" has an empty
    /// value. Returns nil when any name or value is malformed (see `decodeQueryComponent`).
    static func queryItems(_ query: Substring) -> [(name: String, value: String)]? {
        var items: [(name: String, value: String)] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: "=")
            guard let name = decodeQueryComponent(pair[..<(equals ?? pair.endIndex)]) else { return nil }
            guard let value = equals.map({ decodeQueryComponent(pair[pair.index(after: $0)...]) }) ?? "" else { return nil }
            items.append((name, value))
        }
        return items
    }

    private static func decode(_ utf8: Substring.UTF8View, plusAsSpace: Bool) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first != utf8.endIndex else { return nil }
                let second = utf8.index(after: first)
                guard second != utf8.endIndex, let high = hexValue(utf8[first]), let low = hexValue(utf8[second]) else { return nil }
                out.append(high << 4 | low)
                index = utf8.index(after: second)
            } else {
                out.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index = utf8.index(after: index)
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
