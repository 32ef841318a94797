import CSQLite
import Synchronization

/// The durable store of lists: SQLite in WAL mode, one transaction per accepted write.
///
/// Each write stores the list's metadata, only the rows it touched, and one change-log
/// entry; the log keeps the last `changeLogLimit` patches per list so that a reconnecting
/// subscriber can resume. Calls are serialised on one connection; each is short, because
/// callers do parsing, validation and diffing before they call.
public final class ListStore: Sendable {
    /// Raised when a write's version does not follow the stored one (a caller bug, never user input).
    public struct VersionConflict: Error, CustomStringConvertible {
        public let id: String
        public let stored: Int
        public let attempted: Int
        public var description: String { "list \(id): stored version \(stored), write of version \(attempted)" }
    }

    private let connection: Mutex<SQLiteConnection>
    /// Where the database lives; `:memory:` for a private in-memory one.
    public let path: String
    /// How many patches per list the change log keeps.
    public let changeLogLimit: Int

    public init(path: String, changeLogLimit: Int = 1_000) throws {
        let connection = try SQLiteConnection(path: path)
        try Self.configure(connection, inMemory: path == ":memory:")
        self.connection = Mutex(connection)
        self.path = path
        self.changeLogLimit = changeLogLimit
    }

    private static func configure(_ db: SQLiteConnection, inMemory: Bool) throws {
        if !inMemory { try db.execute("PRAGMA journal_mode=WAL") }
        // NORMAL in WAL mode: a commit survives a crash of this process (kill -9);
        // only an operating-system crash or power loss can lose the last commits.
        try db.execute("PRAGMA synchronous=NORMAL")
        try db.execute("PRAGMA foreign_keys=ON")
        try db.transaction {
            if try userVersion(db) == 1 { try db.execute(Schema.changesToVersion2) }
            try db.execute(Schema.current)
        }
    }

    /// The schema version the database was last written with (0 for a new one).
    private static func userVersion(_ db: SQLiteConnection) throws -> Int {
        let query = try db.statement("PRAGMA user_version")
        defer { query.reset() }
        return try query.step() ? query.int(0) : 0
    }

    /// Every stored list with its rows in order.
    public func loadAll() throws -> [StoredList] {
        try connection.withLock { db in
            var lists: [StoredList] = []
            let listQuery = try db.statement("SELECT id, version, meta FROM lists ORDER BY id")
            while try listQuery.step() {
                lists.append(StoredList(id: listQuery.text(0), version: listQuery.int(1), meta: listQuery.blob(2), rows: []))
            }
            listQuery.reset()
            let rowQuery = try db.statement(
                "SELECT row_key, section_key, order_key, body FROM rows WHERE list_id = ? ORDER BY order_key")
            for index in lists.indices {
                rowQuery.reset()
                try rowQuery.bind(lists[index].id)
                while try rowQuery.step() {
                    lists[index].rows.append(StoredRow(
                        key: rowQuery.text(0), section: rowQuery.text(1), orderKey: rowQuery.text(2), body: rowQuery.blob(3)))
                }
            }
            rowQuery.reset()
            return lists
        }
    }

    /// Commits one write in one transaction. The version must follow the stored one by exactly
    /// one: the list's, or for a list created again its tombstone's, or 0 for a new id.
    public func commit(_ write: StoreWrite) throws {
        try connection.withLock { db in
            try db.transaction {
                let stored = try Self.storedVersion(of: write.id, db)
                guard stored == write.version - 1 else {
                    throw VersionConflict(id: write.id, stored: stored, attempted: write.version)
                }
                let upsertList = try db.statement("""
                    INSERT INTO lists (id, version, meta) VALUES (?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET version = excluded.version, meta = excluded.meta
                    """)
                try upsertList.bind(write.id, write.version, write.meta)
                try upsertList.run()
                let deleteRow = try db.statement("DELETE FROM rows WHERE list_id = ? AND row_key = ?")
                for key in write.deletedRowKeys {
                    try deleteRow.bind(write.id, key)
                    try deleteRow.run()
                }
                let upsertRow = try db.statement("""
                    INSERT INTO rows (list_id, row_key, section_key, order_key, body) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(list_id, row_key) DO UPDATE SET
                      section_key = excluded.section_key, order_key = excluded.order_key, body = excluded.body
                    """)
                for row in write.upsertedRows {
                    try upsertRow.bind(write.id, row.key, row.section, row.orderKey, row.body)
                    try upsertRow.run()
                }
                let clearTombstone = try db.statement("DELETE FROM tombstones WHERE id = ?")
                try clearTombstone.bind(write.id)
                try clearTombstone.run()
                let logChange = try db.statement("INSERT INTO changes (list_id, version, patch) VALUES (?, ?, ?)")
                try logChange.bind(write.id, write.version, write.patch)
                try logChange.run()
                let trimLog = try db.statement("DELETE FROM changes WHERE list_id = ? AND version <= ?")
                try trimLog.bind(write.id, write.version - changeLogLimit)
                try trimLog.run()
            }
        }
    }

    /// Removes a list, its rows and its change log, remembering `version` (the deletion's own
    /// version) so that a list created again under `id` starts after it. Returns whether it existed.
    @discardableResult
    public func delete(id: String, version: Int) throws -> Bool {
        try connection.withLock { db in
            try db.transaction {
                let tombstone = try db.statement("INSERT OR REPLACE INTO tombstones (id, version) VALUES (?, ?)")
                try tombstone.bind(id, version)
                try tombstone.run()
                for sql in ["DELETE FROM rows WHERE list_id = ?", "DELETE FROM changes WHERE list_id = ?"] {
                    let statement = try db.statement(sql)
                    try statement.bind(id)
                    try statement.run()
                }
                let statement = try db.statement("DELETE FROM lists WHERE id = ?")
                try statement.bind(id)
                try statement.run()
                return sqlite3_changes(db.handle) > 0
            }
        }
    }

    /// The version a list was deleted at, by id, for every deleted id not created again.
    public func loadTombstones() throws -> [String: Int] {
        try connection.withLock { db in
            var tombstones: [String: Int] = [:]
            let query = try db.statement("SELECT id, version FROM tombstones")
            while try query.step() { tombstones[query.text(0)] = query.int(1) }
            query.reset()
            return tombstones
        }
    }

    /// The version a write must follow: the list's, else its tombstone's, else 0.
    private static func storedVersion(of id: String, _ db: SQLiteConnection) throws -> Int {
        for sql in ["SELECT version FROM lists WHERE id = ?", "SELECT version FROM tombstones WHERE id = ?"] {
            let query = try db.statement(sql)
            try query.bind(id)
            defer { query.reset() }
            if try query.step() { return query.int(0) }
        }
        return 0
    }

    /// The patches after `version` up to the newest, oldest first; `nil` when the log no longer
    /// reaches back that far (or the list is unknown).
    public func changes(of id: String, after version: Int) throws -> [StoredChange]? {
        try connection.withLock { db in
            let bounds = try db.statement("SELECT MIN(version), MAX(version), COUNT(*) FROM changes WHERE list_id = ?")
            try bounds.bind(id)
            _ = try bounds.step()
            let oldest = bounds.int(0), newest = bounds.int(1), count = bounds.int(2)
            bounds.reset()
            guard count > 0, version >= oldest - 1, version <= newest else { return nil }
            let query = try db.statement("SELECT version, patch FROM changes WHERE list_id = ? AND version > ? ORDER BY version")
            try query.bind(id, version)
            var changes: [StoredChange] = []
            while try query.step() { changes.append(StoredChange(version: query.int(0), patch: query.blob(1))) }
            query.reset()
            return changes
        }
    }

    /// Proves the store can still commit: a tiny write in its own transaction.
    public func checkWritable() throws {
        try connection.withLock { db in
            try db.transaction {
                let statement = try db.statement("INSERT OR REPLACE INTO health (id, checked) VALUES (1, unixepoch())")
                try statement.run()
            }
        }
    }
}
