/// A list as the store keeps it: the document's metadata and its rows, each row on its own
/// so that a write touches only the rows it changed.
public struct StoredList: Sendable, Equatable {
    public var id: String
    public var version: Int
    /// The canonical document JSON with every section's `rows` empty.
    public var meta: [UInt8]
    /// The rows in document order (ascending order key).
    public var rows: [StoredRow]
    /// When a list of this id was deleted before this one was created (the deletion's version),
    /// else nil: an instance holding a version older than that holds the deleted list, whose
    /// subscribers must be told it is gone rather than be patched into this one.
    public var deletedAt: Int?

    public init(id: String, version: Int, meta: [UInt8], rows: [StoredRow], deletedAt: Int? = nil) {
        self.id = id
        self.version = version
        self.meta = meta
        self.rows = rows
        self.deletedAt = deletedAt
    }
}

/// One row as stored: which section holds it, where it sorts, its canonical JSON, and its
/// version (the list version of the write that last stored it; 0 for a row stored before rows
/// had versions, which takes the list's version when loaded).
public struct StoredRow: Sendable, Equatable {
    public var key: String
    public var section: String
    public var orderKey: String
    public var body: [UInt8]
    /// Read back from the store; a write stores every row it writes at the write's version.
    public var version: Int

    public init(key: String, section: String, orderKey: String, body: [UInt8], version: Int = 0) {
        self.key = key
        self.section = section
        self.orderKey = orderKey
        self.body = body
        self.version = version
    }
}

/// One accepted write: the list's new version and metadata, the rows it added or changed
/// (each stored with the write's version as its row version), the rows it removed, and the
/// change-log entry (the patch from the previous version).
public struct StoreWrite: Sendable {
    public var id: String
    public var version: Int
    public var meta: [UInt8]
    public var upsertedRows: [StoredRow]
    public var deletedRowKeys: [String]
    public var patch: [UInt8]

    public init(id: String, version: Int, meta: [UInt8], upsertedRows: [StoredRow], deletedRowKeys: [String], patch: [UInt8]) {
        self.id = id
        self.version = version
        self.meta = meta
        self.upsertedRows = upsertedRows
        self.deletedRowKeys = deletedRowKeys
        self.patch = patch
    }
}

/// A change-log entry: the patch that took the list to `version`, and the order keys of the
/// rows that write stored (new, moved or changed rows), so that another instance replaying it
/// gives every row the same order key as the instance that made it, and the rows it names the
/// row version `version` (a write stores exactly the rows it changed, all at its version).
public struct StoredChange: Sendable, Equatable {
    public var version: Int
    public var patch: [UInt8]
    public var orderKeys: [StoredOrderKey]

    public init(version: Int, patch: [UInt8], orderKeys: [StoredOrderKey]) {
        self.version = version
        self.patch = patch
        self.orderKeys = orderKeys
    }
}

/// A row's order key, as a change-log entry records it.
public struct StoredOrderKey: Sendable, Equatable {
    public var rowKey: String
    public var orderKey: String

    public init(rowKey: String, orderKey: String) {
        self.rowKey = rowKey
        self.orderKey = orderKey
    }
}

extension StoreWrite {
    /// The order keys the change log records for this write: those of every row it stores.
    var loggedOrderKeys: [StoredOrderKey] {
        upsertedRows.map { StoredOrderKey(rowKey: $0.key, orderKey: $0.orderKey) }
    }
}
