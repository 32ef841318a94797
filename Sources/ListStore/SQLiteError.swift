import CSQLite

/// An SQLite call that failed, with SQLite's own message.
public struct SQLiteError: Error, CustomStringConvertible {
    /// The SQLite result code (`SQLITE_BUSY`, `SQLITE_FULL`, …).
    public let code: Int32
    /// What SQLite said, and what we were doing.
    public let message: String

    public var description: String { "SQLite error \(code): \(message)" }
}

/// Turns an SQLite result code into a thrown error unless it is one of `accepted`.
@discardableResult
func check(_ code: Int32, _ db: OpaquePointer?, _ context: @autoclosure () -> String, accepted: Set<Int32> = [SQLITE_OK]) throws -> Int32 {
    guard accepted.contains(code) else {
        let detail = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        throw SQLiteError(code: code, message: "\(context()): \(detail)")
    }
    return code
}
