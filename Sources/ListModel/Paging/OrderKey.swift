/// A server-assigned position of a row: order keys sort in document order.
///
/// Fractional indexing: a row inserted between two others gets a key between theirs,
/// so no other row is ever renumbered. The text is printable ASCII.
public struct OrderKey: Sendable, Hashable, Comparable {
    /// The key's text; compared byte by byte.
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static func < (lhs: OrderKey, rhs: OrderKey) -> Bool {
        // Over contiguous UTF-8 (a stack copy for small strings): several times faster than
        // iterating the UTF-8 views, which binary searches and the LIS of updates feel.
        var left = lhs.rawValue
        var right = rhs.rawValue
        return left.withUTF8 { a in
            right.withUTF8 { b in
                let count = min(a.count, b.count)
                var index = 0
                while index < count {
                    if a[index] != b[index] { return a[index] < b[index] }
                    index += 1
                }
                return a.count < b.count
            }
        }
    }
}
