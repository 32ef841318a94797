import ServerSupport

extension PostgresStore {
    /// Rows per `upsertRows` statement: a 1M-row creation takes a few hundred round trips, and
    /// no parameter grows past a few megabytes.
    static let rowsPerStatement = 5_000

    public func commit(_ write: StoreWrite, deadline: ContinuousClock.Instant?) throws {
        try pool.withConnection(before: deadline) { db in
            var locks = try LockWaits(deadline: deadline, id: write.id)
            try db.transaction(locks.begin) {
                try Self.lockAndCheck(write.id, before: write.version, db)
                for chunk in write.deletedRowKeys.chunked(Self.rowsPerStatement) {
                    try locks.renew(db)
                    try db.run(PostgresStatements.deleteRows, [.text(write.id), .bytesArray(chunk.map { Array($0.utf8) })])
                }
                for chunk in write.upsertedRows.chunked(Self.rowsPerStatement) {
                    try locks.renew(db)
                    try db.run(
                        PostgresStatements.upsertRows,
                        [
                            .text(write.id), .bytesArray(chunk.map { Array($0.key.utf8) }),
                            .bytesArray(chunk.map { Array($0.section.utf8) }), .textArray(chunk.map(\.orderKey)),
                            .bytesArray(chunk.map(\.body)), .int(write.version),
                        ])
                }
                try locks.renew(db)
                try db.run(
                    PostgresStatements.recordWrite,
                    [
                        .text(write.id), .int(write.version), .bytes(write.meta), .bytes(write.patch),
                        .bytes(StoredOrderKey.encode(write.loggedOrderKeys)), .int(changeLogLimit),
                    ])
            }
        }
        notifier.announce(id: write.id, version: write.version)
    }

    public func delete(id: String, version: Int, deadline: ContinuousClock.Instant?) throws {
        try pool.withConnection(before: deadline) { db in
            var locks = try LockWaits(deadline: deadline, id: id)
            try db.transaction(locks.begin) {
                try Self.lockAndCheck(id, before: version, db)
                try locks.renew(db)
                try db.run(PostgresStatements.recordDeletion, [.text(id), .int(version)])
            }
        }
        notifier.announce(id: id, version: version)
    }

    /// Takes the list's write lock for the transaction, then throws `VersionConflict` unless
    /// `version` follows the committed one (read after the lock, so it is the newest).
    private static func lockAndCheck(_ id: String, before version: Int, _ db: PGConnection) throws {
        try db.run(PostgresStatements.lockList, [.text(id)])
        let stored = try db.run(PostgresStatements.storedVersion, [.text(id)]).int(0, 0)
        guard stored == version - 1 else { throw VersionConflict(id: id, stored: stored, attempted: version) }
    }
}

/// A write's lock waits kept within its deadline: the transaction begins with `SET LOCAL
/// lock_timeout` to the time left (in the same round trip as `BEGIN`), so the list's advisory
/// lock and every table lock (`LOCK TABLE changes` in another session, say) are waited for at
/// most that long, then PostgreSQL answers 55P03 (`.busy`). A statement that waited makes the
/// time left shorter: before the next one, `renew` sets `lock_timeout` again (a round trip only
/// then, so an uncontended write pays none), so all the waits of one write add up to at most its
/// deadline plus `slack`.
struct LockWaits {
    /// How stale the last `lock_timeout` may get before it is set again.
    static let slack = Duration.milliseconds(50)

    let deadline: ContinuousClock.Instant?
    let id: String
    /// When `lock_timeout` was last set.
    private var setAt = ContinuousClock.now
    /// `BEGIN`, with the lock timeout when there is a deadline.
    let begin: String

    /// Throws `.busy` when the deadline has passed already.
    init(deadline: ContinuousClock.Instant?, id: String) throws {
        self.deadline = deadline
        self.id = id
        guard let deadline else {
            begin = "BEGIN"
            return
        }
        begin = "BEGIN; SET LOCAL lock_timeout = \(try Self.milliseconds(until: deadline, id: id))"
    }

    /// Sets `lock_timeout` to the time left when the last setting is more than `slack` old.
    mutating func renew(_ db: PGConnection) throws {
        guard let deadline, ContinuousClock.now - setAt > Self.slack else { return }
        setAt = ContinuousClock.now
        try db.execute("SET LOCAL lock_timeout = \(try Self.milliseconds(until: deadline, id: id))")
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant, id: String) throws -> Int {
        let left = deadline - ContinuousClock.now
        guard left > .milliseconds(1) else {
            throw StoreError(.busy, "the write to list \(id) reached its deadline before it could commit")
        }
        return Int(left.seconds * 1000)
    }
}

extension Array {
    /// Consecutive slices of at most `size` elements (none for an empty array).
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
