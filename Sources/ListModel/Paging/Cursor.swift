/// A position in a list between two rows: the order key and row key of the row before it.
///
/// Clients see cursors only as opaque URL-safe strings (`encoded`, `init(decoding:)`).
public struct Cursor: Sendable, Hashable {
    /// The order key of the last row delivered.
    public var orderKey: OrderKey
    /// The key of that row.
    public var rowKey: String
    /// The key of that row's section, when known: it places empty sections right when the
    /// row has since been deleted.
    public var sectionKey: String?

    public init(orderKey: OrderKey, rowKey: String) {
        self.orderKey = orderKey
        self.rowKey = rowKey
    }

    public init(orderKey: OrderKey, rowKey: String, sectionKey: String?) {
        self.orderKey = orderKey
        self.rowKey = rowKey
        self.sectionKey = sectionKey
    }
}
