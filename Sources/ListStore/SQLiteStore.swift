import CSQLite
import ServerSupport
import Synchronization

/// The embedded store of one instance: SQLite in WAL mode, one transaction per accepted write.
///
/// Each write stores the list's metadata, only the rows it touched, and one change-log
/// entry; the log keeps the last `changeLogLimit` changes per list so that a reconnecting
/// subscriber can resume. Calls are serialised on one connection; each is short, because
/// callers do parsing, validation and diffing before they call.
public final class SQLiteStore: Store {
    let connection: Mutex<SQLiteConnection>
    /// Room on the disk (nil for `:memory:`): the full flag and the reserve, `SQLiteStore+Space`.
    let space: SQLiteSpace?
    /// Where the database lives; `:memory:` for a private in-memory one.
    public let path: String
    /// How many changes per list the change log keeps.
    public let changeLogLimit: Int

    public var location: String { path }

    /// Opens (creating if needed) the store at `path`. On a disk too full to open the database
    /// (SQLite's shared-memory file needs room), a megabyte of the reserve is given back and
    /// opening retried.
    /// - Parameter diskReserve: bytes kept in `<path>-reserve` for deletions on a full disk; 0: none.
    public init(
        path: String, changeLogLimit: Int = ServerDefaults.changeLogLimit,
        diskReserve: Int = ServerDefaults.diskReserve
    ) throws {
        let space = path == ":memory:" ? nil : SQLiteSpace(databasePath: path, reserveBytes: diskReserve)
        let connection: SQLiteConnection
        do {
            connection = try Self.open(path)
        } catch let error as SQLiteError where error.storeKind == .full && space?.releaseReserve(bytes: 1 << 20) == true {
            // Opening needs little room (SQLite's 32 KiB shared-memory file): a megabyte of
            // the reserve is enough, the rest stays for deletions.
            connection = try Self.open(path)
        }
        space?.restoreIfRoom()
        self.space = space
        self.connection = Mutex(connection)
        self.path = path
        self.changeLogLimit = changeLogLimit
    }

    private static func open(_ path: String) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        try configure(connection, inMemory: path == ":memory:")
        return connection
    }

    /// Sets the connection up; writes only when the schema is not current (a new or older database).
    private static func configure(_ db: SQLiteConnection, inMemory: Bool) throws {
        let found = try userVersion(db)
        // A new database gives the pages of deleted lists back to the file system on demand
        // (`SQLiteStore+Space`); this must come before the first table and before WAL mode.
        if found == 0 { try db.execute("PRAGMA auto_vacuum=INCREMENTAL") }
        if !inMemory { try db.execute("PRAGMA journal_mode=WAL") }
        // NORMAL in WAL mode: a commit survives a crash of this process (kill -9);
        // only an operating-system crash or power loss can lose the last commits.
        try db.execute("PRAGMA synchronous=NORMAL")
        try db.execute("PRAGMA foreign_keys=ON")
        // Debian builds SQLite with secure_delete on: every page a deletion frees is zeroed
        // through the WAL, so deleting a list needs as much room as the list, which a full disk
        // does not have. FAST still clears deleted rows inside pages that are written anyway.
        try db.execute("PRAGMA secure_delete=FAST")
        guard found < Schema.version else { return }
        try db.transaction {
            if found == 1 { try db.execute(Schema.changesToVersion2) }
            if found == 1 || found == 2 { try db.execute(Schema.changesToVersion3) }
            if (1...3).contains(found), try Self.hasTable("rows", db) { try db.execute(Schema.rowsToVersion4) }
            try db.execute(Schema.current)
        }
    }

    /// Whether the database has a table of this name.
    private static func hasTable(_ name: String, _ db: SQLiteConnection) throws -> Bool {
        let query = try db.statement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
        defer { query.reset() }
        try query.bind(name)
        return try query.step()
    }

    /// The schema version the database was last written with (0 for a new one).
    private static func userVersion(_ db: SQLiteConnection) throws -> Int {
        let query = try db.statement("PRAGMA user_version")
        defer { query.reset() }
        return try query.step() ? query.int(0) : 0
    }

    /// Throws once the store is closed; called first, under the connection's lock.
    func requireOpen(_ db: SQLiteConnection) throws {
        if db.isClosed { throw StoreError(.failed, "the store \(path) is closed") }
    }

    public func commit(_ write: StoreWrite, deadline: ContinuousClock.Instant?) throws {
        try writing { db in
            try db.waitingAtMost(milliseconds: try Self.milliseconds(until: deadline, id: write.id)) {
                try db.transaction {
                    try Self.requireVersion(before: write.version, of: write.id, db)
                    let upsertList = try db.statement(
                        """
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
                    let upsertRow = try db.statement(
                        """
                        INSERT INTO rows (list_id, row_key, section_key, order_key, body, version) VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT(list_id, row_key) DO UPDATE SET
                          section_key = excluded.section_key, order_key = excluded.order_key, body = excluded.body,
                          version = excluded.version
                        """)
                    for row in write.upsertedRows {
                        try upsertRow.bind(write.id, row.key, row.section, row.orderKey, row.body, write.version)
                        try upsertRow.run()
                    }
                    let logChange = try db.statement("INSERT INTO changes (list_id, version, patch, order_keys) VALUES (?, ?, ?, ?)")
                    try logChange.bind(write.id, write.version, write.patch, StoredOrderKey.encode(write.loggedOrderKeys))
                    try logChange.run()
                    let trimLog = try db.statement("DELETE FROM changes WHERE list_id = ? AND version <= ?")
                    try trimLog.bind(write.id, write.version - changeLogLimit)
                    try trimLog.run()
                }
            }
        }
    }

    /// The time left before `deadline`, in milliseconds, for SQLite's busy timeout (nil: the
    /// usual 5 s); throws `.busy` when it has passed.
    private static func milliseconds(until deadline: ContinuousClock.Instant?, id: String) throws -> Int {
        guard let deadline else { return SQLiteConnection.busyTimeoutMilliseconds }
        let left = deadline - ContinuousClock.now
        guard left > .milliseconds(1) else { throw StoreError(.busy, "the write to list \(id) reached its deadline before it could begin") }
        return Int(Double(left.components.seconds) * 1000 + Double(left.components.attoseconds) / 1e15)
    }

    /// On a full disk, the reserve is given back first (a deletion needs room too), and the
    /// deleted list's pages are given back to the file system after (`SQLiteStore+Space`).
    public func delete(id: String, version: Int, deadline: ContinuousClock.Instant?) throws {
        try deleting { db in
            try db.waitingAtMost(milliseconds: try Self.milliseconds(until: deadline, id: id)) {
                try db.transaction {
                    try Self.requireVersion(before: version, of: id, db)
                    let tombstone = try db.statement("INSERT OR REPLACE INTO tombstones (id, version) VALUES (?, ?)")
                    try tombstone.bind(id, version)
                    try tombstone.run()
                    for sql in [
                        "DELETE FROM rows WHERE list_id = ?", "DELETE FROM changes WHERE list_id = ?",
                        "DELETE FROM lists WHERE id = ?",
                    ] {
                        let statement = try db.statement(sql)
                        try statement.bind(id)
                        try statement.run()
                    }
                }
            }
        }
    }

    private static func requireVersion(before version: Int, of id: String, _ db: SQLiteConnection) throws {
        var stored = 0
        for sql in ["SELECT version FROM lists WHERE id = ?", "SELECT version FROM tombstones WHERE id = ?"] {
            let query = try db.statement(sql)
            try query.bind(id)
            defer { query.reset() }
            if try query.step() {
                stored = query.int(0)
                break
            }
        }
        guard stored == version - 1 else { throw VersionConflict(id: id, stored: stored, attempted: version) }
    }

    public func checkWritable() throws {
        try checkRoom()
        try writing { db in
            try db.transaction {
                let statement = try db.statement("INSERT OR REPLACE INTO health (id, checked) VALUES (1, unixepoch())")
                try statement.run()
            }
        }
    }

    public func setting(_ name: String, orInsert make: @Sendable () -> [UInt8]) throws -> [UInt8] {
        try writing { db in
            return try db.transaction {
                let query = try db.statement("SELECT value FROM settings WHERE name = ?")
                try query.bind(name)
                defer { query.reset() }
                if try query.step() { return query.blob(0) }
                let value = make()
                let insert = try db.statement("INSERT INTO settings (name, value) VALUES (?, ?)")
                try insert.bind(name, value)
                try insert.run()
                return value
            }
        }
    }

    /// One instance owns an SQLite file: no other commits to report.
    public func startChangeFeed(_ receive: @escaping @Sendable (StoreFeedEvent) -> Void) {}

    public func close() {
        connection.withLock { db in db.close() }
    }
}
