/// A server-assigned position of a row: order keys sort in document order.
///
/// Fractional indexing: a row inserted between two others gets a key between theirs,
/// so no other row is ever renumbered. The text is printable ASCII.
public struct OrderKey: Sendable, Hashable, Comparable {
    /// The key's text; compared byte by byte.
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static func < (lhs: OrderKey, rhs: OrderKey) -> Bool {
        lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }
}
