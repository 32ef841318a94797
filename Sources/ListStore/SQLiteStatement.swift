import CSQLite

/// A prepared SQLite statement. Parameters are bound by 1-based index.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    /// The corresponding C function is `sqlite3_prepare_v3`.
    init(connection: SQLiteConnection, sql: String) throws {
        var statement: OpaquePointer?
        try check(
            sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil),
            connection.handle, "preparing \(sql.prefix(60))")
        guard let statement else { throw SQLiteError(code: SQLITE_MISUSE, message: "empty statement: \(sql)") }
        handle = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Clears bindings and rewinds, ready for the next use.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds by byte length, so text holding NUL characters is stored whole.
    func bind(_ index: Int32, _ value: String) throws {
        var value = value
        let code = value.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { text in
                guard let base = text.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, csqlite_transient()) }
                return sqlite3_bind_text64(handle, index, base, sqlite3_uint64(text.count), csqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
        try check(code, connection.handle, "binding text")
    }

    func bind(_ index: Int32, _ value: Int) throws {
        try check(sqlite3_bind_int64(handle, index, Int64(value)), connection.handle, "binding integer")
    }

    func bind(_ index: Int32, _ bytes: [UInt8]) throws {
        let code = bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return sqlite3_bind_blob64(handle, index, base, sqlite3_uint64(buffer.count), csqlite_transient())
        }
        try check(code, connection.handle, "binding blob")
    }

    /// Binds all parameters in order.
    func bind(_ values: any SQLiteBindable...) throws {
        for (offset, value) in values.enumerated() { try value.bind(to: self, at: Int32(offset + 1)) }
    }

    /// Steps once: `true` when a row is available, `false` when done.
    /// The corresponding C function is `sqlite3_step`.
    @discardableResult
    func step() throws -> Bool {
        let code = try check(sqlite3_step(handle), connection.handle, "stepping", accepted: [SQLITE_ROW, SQLITE_DONE])
        return code == SQLITE_ROW
    }

    /// Runs the statement to completion, ignoring rows.
    func run() throws {
        while try step() {}
        reset()
    }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

/// A Swift value that can be bound to a statement parameter.
protocol SQLiteBindable {
    func bind(to statement: SQLiteStatement, at index: Int32) throws
}

extension String: SQLiteBindable {
    func bind(to statement: SQLiteStatement, at index: Int32) throws { try statement.bind(index, self) }
}

extension Int: SQLiteBindable {
    func bind(to statement: SQLiteStatement, at index: Int32) throws { try statement.bind(index, self) }
}

extension Array: SQLiteBindable where Element == UInt8 {
    func bind(to statement: SQLiteStatement, at index: Int32) throws { try statement.bind(index, self) }
}
