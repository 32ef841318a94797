import CSQLite

#if canImport(Glibc)
import Glibc
#endif

/// An SQLite call that failed, with SQLite's own message.
public struct SQLiteError: Error, CustomStringConvertible {
    /// The SQLite result code (`SQLITE_BUSY`, `SQLITE_FULL`, …).
    public let code: Int32
    /// What SQLite said, and what we were doing.
    public let message: String
    /// The operating system's `errno` behind an I/O error (`ENOSPC`, ...), or 0.
    public var systemErrno: Int32 = 0

    public var description: String { "SQLite error \(code): \(message)" }
}

/// Turns an SQLite result code into a thrown error unless it is one of `accepted`.
@discardableResult
func check(_ code: Int32, _ db: OpaquePointer?, _ context: @autoclosure () -> String, accepted: Set<Int32> = [SQLITE_OK]) throws -> Int32 {
    guard accepted.contains(code) else {
        let detail = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        throw SQLiteError(code: code, message: "\(context()): \(detail)", systemErrno: db.map { sqlite3_system_errno($0) } ?? 0)
    }
    return code
}

extension SQLiteError {
    /// What the failure means for a caller (`StoreError.Kind`): `.full` when the disk (or quota)
    /// has no room, `.busy` when another connection (another process) kept the database locked
    /// past the busy timeout, `.unavailable` when it may pass (other I/O errors, a read-only
    /// database, no memory), `.failed` for anything else (corruption, misuse).
    public var storeKind: StoreError.Kind {
        if systemErrno == ENOSPC || systemErrno == EDQUOT { return .full }
        switch code & 0xFF {
        case SQLITE_FULL: return .full
        case SQLITE_IOERR where code == SQLITE_IOERR | (19 << 8): return .full  // SQLITE_IOERR_SHMSIZE
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_IOERR, SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_NOMEM, SQLITE_PROTOCOL:
            return .unavailable
        default: return .failed
        }
    }

    /// The same failure as a `StoreError`, which the HTTP layer answers 507, 503 or 500.
    public var storeError: StoreError { StoreError(storeKind, description) }
}
