extension PostgresStore {
    /// Rows per `upsertRows` statement: a 1M-row creation takes a few hundred round trips, and
    /// no parameter grows past a few megabytes.
    static let rowsPerStatement = 5_000

    public func commit(_ write: StoreWrite) throws {
        try pool.withConnection { db in
            try db.transaction {
                try Self.lockAndCheck(write.id, before: write.version, db)
                for chunk in write.deletedRowKeys.chunked(Self.rowsPerStatement) {
                    try db.run(PostgresStatements.deleteRows, [.text(write.id), .bytesArray(chunk.map { Array($0.utf8) })])
                }
                for chunk in write.upsertedRows.chunked(Self.rowsPerStatement) {
                    try db.run(PostgresStatements.upsertRows, [
                        .text(write.id), .bytesArray(chunk.map { Array($0.key.utf8) }),
                        .bytesArray(chunk.map { Array($0.section.utf8) }), .textArray(chunk.map(\.orderKey)),
                        .bytesArray(chunk.map(\.body)),
                    ])
                }
                try db.run(PostgresStatements.recordWrite, [
                    .text(write.id), .int(write.version), .bytes(write.meta), .bytes(write.patch),
                    .bytes(StoredOrderKey.encode(write.loggedOrderKeys)), .int(changeLogLimit),
                ])
            }
        }
        notifier.announce(id: write.id, version: write.version)
    }

    public func delete(id: String, version: Int) throws {
        try pool.withConnection { db in
            try db.transaction {
                try Self.lockAndCheck(id, before: version, db)
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

extension Array {
    /// Consecutive slices of at most `size` elements (none for an empty array).
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
