import CSQLite

/// One SQLite connection. Not thread-safe: `ListStore` guards it with a lock.
final class SQLiteConnection {
    let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    /// Set by `close()`: the handle is gone and must not be used.
    private(set) var isClosed = false

    /// Opens (creating if needed) the database at `path`; `:memory:` for a private in-memory one.
    /// The corresponding C function is `sqlite3_open_v2`.
    init(path: String) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: code, message: "cannot open \(path): \(message)")
        }
        handle = db
        sqlite3_busy_timeout(db, Int32(Self.busyTimeoutMilliseconds))
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { close() }

    /// How long a statement waits for another process's lock on the database file: 5 s (a
    /// write waits the time left before its deadline instead, `waitingAtMost`).
    static let busyTimeoutMilliseconds = 5_000

    /// Runs `body` with SQLite's busy timeout set to `milliseconds`, then puts the usual one
    /// back (two calls that only set the connection's handler). The corresponding C function is
    /// `sqlite3_busy_timeout`.
    func waitingAtMost<T>(milliseconds: Int, _ body: () throws -> T) rethrows -> T {
        if milliseconds == Self.busyTimeoutMilliseconds { return try body() }
        sqlite3_busy_timeout(handle, Int32(clamping: max(1, milliseconds)))
        defer { sqlite3_busy_timeout(handle, Int32(Self.busyTimeoutMilliseconds)) }
        return try body()
    }

    /// Finalizes every statement and closes the database; later calls must not use it.
    /// The corresponding C function is `sqlite3_close_v2`.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more SQL statements that return no rows.
    /// The corresponding C function is `sqlite3_exec`.
    func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), handle, "executing \(sql.prefix(60))")
    }

    /// A prepared statement for `sql`, cached for reuse and reset before it is returned.
    func statement(_ sql: String) throws -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        let statement = try SQLiteStatement(connection: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
