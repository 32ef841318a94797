/// The durable store behind the list registry: SQLite for one instance (`SQLiteStore`), or
/// PostgreSQL shared by several (docs/SCALE-OUT.md).
///
/// A write is optimistic: the registry computes it from its cached snapshot and commits it
/// with the version it expects to follow; when another instance committed first, the store
/// throws `VersionConflict` naming the committed version, and the registry catches up from
/// `changes(of:after:)` and tries again. Calls are short: callers parse, validate and diff
/// before they call.
public protocol Store: Sendable {
    /// Where the store lives, fit for a log line (never a password).
    var location: String { get }

    /// Hands every stored list to `visit`, one at a time (PostgreSQL: all of one snapshot): the
    /// list without its rows (`rows` empty), how many rows it has, and a `StoredRowReader` that
    /// reads them in order, handing each to its argument as it is read (call it once, inside
    /// `visit`). A start so holds one stored row at a time, not a list's.
    func forEachList(_ visit: (_ list: StoredList, _ rowCount: Int, _ rows: StoredRowReader) throws -> Void) throws

    /// One stored list with its rows in order, or nil when there is none (read again when the
    /// change log no longer reaches back to the version an instance holds).
    func load(id: String) throws -> StoredList?

    /// The version each deleted list was deleted at, for every deleted id not created again.
    func loadTombstones() throws -> [String: Int]

    /// The committed version of every list and of every deletion: cheap, for reconciliation
    /// (an instance compares them with what it holds to find notifications it missed).
    func versions() throws -> StoredVersions

    /// Commits one write in one transaction. `write.version` must follow the committed version
    /// by exactly one (the list's, or for a list created again its tombstone's, or 0 for a new
    /// id); otherwise throws `VersionConflict` and nothing changes. The change log records the
    /// write's patch and the order keys of the rows it stored.
    /// - Parameter deadline: the most the write may wait, in all, for a connection and for the
    ///   database's locks (the list's, a table's); past it the store throws `StoreError(.busy)`
    ///   and nothing changes. Nil: only the store's own limits.
    func commit(_ write: StoreWrite, deadline: ContinuousClock.Instant?) throws

    /// Removes a list, its rows and its change log, remembering `version` (the deletion's own
    /// version, which must follow the committed one by one, else `VersionConflict`) so that a
    /// list created again under `id` starts after it. `deadline` as for `commit`.
    func delete(id: String, version: Int, deadline: ContinuousClock.Instant?) throws

    /// The changes after `version` up to the newest, oldest first; nil when the log no longer
    /// reaches back that far (or the list is unknown).
    func changes(of id: String, after version: Int) throws -> [StoredChange]?

    /// Throws unless the store can still commit (the health check).
    func checkWritable() throws

    /// True while the store knows its disk has no room for writes (the last write found none):
    /// the health check answers 503 at once, without waiting for its next probe.
    var isOutOfRoom: Bool { get }

    /// A small named value every instance sharing the store agrees on (e.g. the secret that signs
    /// view links): the stored one, or `make()`'s, stored now when there was none. Two instances
    /// racing get the same value.
    func setting(_ name: String, orInsert make: @Sendable () -> [UInt8]) throws -> [UInt8]

    /// Starts telling `receive` about commits of other instances (SQLite: there are none, so it is
    /// never called). Called once, before the server starts serving.
    func startChangeFeed(_ receive: @escaping @Sendable (StoreFeedEvent) -> Void)

    /// Stops the change feed and closes connections; later calls throw.
    func close()
}

extension Store {
    /// Commits with only the store's own time limits (`commit(_:deadline:)`).
    public func commit(_ write: StoreWrite) throws { try commit(write, deadline: nil) }

    /// Deletes with only the store's own time limits (`delete(id:version:deadline:)`).
    public func delete(id: String, version: Int) throws { try delete(id: id, version: version, deadline: nil) }

    /// A store that cannot tell (PostgreSQL reports a full disk per write, as `StoreError.full`).
    public var isOutOfRoom: Bool { false }
}

/// What the change feed reports.
public enum StoreFeedEvent: Sendable, Equatable {
    /// Some instance committed `version` of list `id` (or deleted it at that version).
    case committed(id: String, version: Int)
    /// Notifications may have been missed (the feed started or reconnected): compare every
    /// version with `versions()`.
    case resync
}

/// The committed version of every list and every deleted id (`Store.versions()`).
public struct StoredVersions: Sendable, Equatable {
    public var lists: [String: Int]
    public var tombstones: [String: Int]

    public init(lists: [String: Int], tombstones: [String: Int]) {
        self.lists = lists
        self.tombstones = tombstones
    }
}

/// Raised when a write's version does not follow the committed one: another instance (or, with
/// SQLite, a caller bug) committed first. The registry catches up and tries again.
public struct VersionConflict: Error, CustomStringConvertible {
    public let id: String
    /// The committed version (the list's, else its tombstone's, else 0).
    public let stored: Int
    public let attempted: Int

    public init(id: String, stored: Int, attempted: Int) {
        self.id = id
        self.stored = stored
        self.attempted = attempted
    }

    public var description: String { "list \(id): stored version \(stored), write of version \(attempted)" }
}

/// Why the store could not do what was asked, in terms an HTTP answer can use.
public struct StoreError: Error, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The database cannot be reached now (HTTP 503 with `Retry-After`); it may come back.
        case unavailable
        /// The write waited past its deadline for a lock another writer (or a session of the
        /// database's own) holds: the list's, or a table's. Nothing changed; the registry
        /// answers 503 with `Retry-After` naming the list.
        case busy
        /// No space left for the write (HTTP 507); deleting may free some.
        case full
        /// Anything else (HTTP 500); the message says what.
        case failed
    }

    public let kind: Kind
    /// What the database said and what the store was doing; for logs, never a secret.
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// Reads one list's stored rows in order, handing each to the function it is given.
public typealias StoredRowReader = ((StoredRow) throws -> Void) throws -> Void

extension Store {
    /// Every stored list with its rows in order, all at once (`forEachList` holds one row at a time).
    public func loadAll() throws -> [StoredList] {
        var lists: [StoredList] = []
        try forEachList { list, rowCount, readRows in
            var list = list
            list.rows.reserveCapacity(rowCount)
            try readRows { list.rows.append($0) }
            lists.append(list)
        }
        return lists
    }
}
