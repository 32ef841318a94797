import CSQLite

/// How the SQLite store meets a full disk and I/O errors: every SQLite failure leaves the store as
/// a `StoreError` (`.full`: 507, `.unavailable`: 503, `.failed`: 500), a write that finds no room
/// marks the store out of room until one succeeds, and deletions can always run.
extension SQLiteStore {
    /// Runs a read under the connection's lock; SQLite failures become `StoreError`s.
    func reading<T>(_ body: (inout sending SQLiteConnection) throws -> T) throws -> T {
        do {
            return try connection.withLock { db in
                try requireOpen(db)
                return try body(&db)
            }
        } catch let error as SQLiteError {
            throw error.storeError
        }
    }

    /// Runs a write under the connection's lock; SQLite failures become `StoreError`s, and
    /// whether it found room is recorded (`SQLiteSpace`).
    func writing<T>(_ body: (inout sending SQLiteConnection) throws -> T) throws -> T {
        do {
            let result = try connection.withLock { db in
                try requireOpen(db)
                return try body(&db)
            }
            space?.wrote()
            return result
        } catch let error as SQLiteError {
            let mapped = error.storeError
            if mapped.kind == .full, let space {
                space.ranOut()
                // The failed write's frames stay in the WAL file: moving the WAL into the
                // database and truncating it may give that room back for the next write.
                checkpoint()
            }
            throw mapped
        }
    }

    /// Runs a deletion. When it finds no room, the reserve is given back and it runs again; when
    /// the reserve is gone afterwards, the freed pages go back to the file system so that the
    /// reserve (and later writes) find room again.
    func deleting(_ body: (inout sending SQLiteConnection) throws -> Void) throws {
        do {
            try writing(body)
        } catch let error as StoreError where error.kind == .full {
            guard let space, space.releaseReserve() else { throw error }
            // With the reserve's room, move the WAL into the database first (a checkpoint may
            // grow the file by the pages written since the last one) and truncate it.
            checkpoint()
            try writing(body)
        }
        guard let space, !space.hasReserve else { return }
        giveBackFreePages()
        space.restoreIfRoom()
    }

    /// Copies the WAL into the database file and truncates it; quietly does nothing when that
    /// is not possible now.
    func checkpoint() {
        _ = try? connection.withLock { db in
            try requireOpen(db)
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// True while the last write found no room (and the disk has not got room since).
    public var isOutOfRoom: Bool { space?.outOfRoom ?? false }

    /// Throws `.full` while the last write found no room and the disk has not got room since.
    func checkRoom() throws {
        guard let space else { return }
        space.clearIfRoom()
        if space.outOfRoom {
            throw StoreError(.full, "the last write to \(path) found no room left on its disk")
        }
    }

    /// Returns the WAL's room and the pages of deleted lists to the file system, a megabyte at a time (each step
    /// moves at most 256 pages through the WAL, then a checkpoint truncates the file and the WAL,
    /// so the steps fit in little room). Only databases created with `auto_vacuum=INCREMENTAL`
    /// (every database made since) can shrink; older ones keep the pages for their own reuse.
    /// Failures end it quietly: the pages stay free inside the file.
    func giveBackFreePages() {
        // First the WAL itself: copied into the database file and truncated, which gives the
        // room the steps below need.
        checkpoint()
        for _ in 0..<100_000 {
            let progressed =
                (try? connection.withLock { db -> Bool in
                    try requireOpen(db)
                    guard try Self.pragma("auto_vacuum", db) == 2 else { return false }
                    let before = try Self.pragma("freelist_count", db)
                    guard before > 0 else { return false }
                    try db.execute("PRAGMA incremental_vacuum(256)")
                    try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                    return try Self.pragma("freelist_count", db) < before
                }) ?? false
            if !progressed { return }
        }
    }

    /// The integer an SQLite pragma reads as.
    private static func pragma(_ name: String, _ db: SQLiteConnection) throws -> Int {
        let query = try db.statement("PRAGMA \(name)")
        defer { query.reset() }
        return try query.step() ? query.int(0) : 0
    }
}
