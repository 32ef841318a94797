import ServerSupport
import Synchronization

/// The store shared by several instances: PostgreSQL through libpq (docs/SCALE-OUT.md).
///
/// A write is one transaction under a per-list advisory lock: the version check, the rows it
/// touched (in bulk, a few thousand per statement), the list, the change log; `commit` returns
/// after COMMIT, and then announces the new version to the other instances (`PostgresNotifier`),
/// whose change feed (`PostgresListener`) reports it. Reads use a small pool of connections; every call is bounded in time, so while
/// PostgreSQL is unreachable calls throw `StoreError(.unavailable)` quickly, and the store
/// reconnects by itself when it is back.
public final class PostgresStore: Store {
    let address: PostgresAddress
    let pool: PostgresPool
    let notifier: PostgresNotifier
    private let listener = Mutex<PostgresListener?>(nil)
    /// How many changes per list the change log keeps.
    public let changeLogLimit: Int

    /// `postgresql://user@host:port/db` (no password).
    public var location: String { address.redacted }

    /// Whether `location` (a `--db` value) names PostgreSQL: `postgresql://…` or `postgres://…`.
    public static func accepts(_ location: String) -> Bool { PostgresAddress.accepts(location) }

    /// Connects to `url` (any libpq URI) and creates or migrates the schema.
    /// - Parameters:
    ///   - connections: the most connections held open at once.
    ///   - lockTimeout: the longest any statement waits for a lock (`lock_timeout`; a write
    ///     waits less when its deadline is nearer): the server's write timeout.
    /// - Throws: `StoreError` (`.unavailable` when PostgreSQL cannot be reached).
    public init(
        url: String, changeLogLimit: Int = ServerDefaults.changeLogLimit, connections: Int = 4,
        lockTimeout: Duration = .seconds(ServerDefaults.writeTimeoutSeconds)
    ) throws {
        var address = try PostgresAddress(url)
        address.lockTimeoutMilliseconds = max(1, Int(lockTimeout.seconds * 1000))
        self.address = address
        pool = PostgresPool(address: address, size: max(1, connections))
        self.changeLogLimit = changeLogLimit
        try pool.withConnection { try PostgresSchema.prepare($0) }
        notifier = PostgresNotifier(address: address)
    }

    deinit { close() }

    public func forEachList(_ visit: (StoredList, Int, StoredRowReader) throws -> Void) throws {
        try pool.withConnection { db in
            try db.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                let ids = try db.run(PostgresStatements.listIDs)
                for index in 0..<ids.rowCount {
                    guard let (list, rows) = try Self.head(ids.text(index, 0), db) else { continue }
                    try visit(list, rows.rowCount) { row in
                        for index in 0..<rows.rowCount { try row(Self.storedRow(rows, index)) }
                    }
                }
            }
        }
    }

    public func load(id: String) throws -> StoredList? {
        try pool.withConnection { db in
            try db.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { try Self.list(id, db) }
        }
    }

    /// One list and its rows in order; call inside a snapshot so both agree.
    private static func list(_ id: String, _ db: PGConnection) throws -> StoredList? {
        guard var (list, rows) = try head(id, db) else { return nil }
        list.rows = (0..<rows.rowCount).map { storedRow(rows, $0) }
        return list
    }

    /// One list without its rows, and the result holding its rows in order; call inside a snapshot.
    private static func head(_ id: String, _ db: PGConnection) throws -> (StoredList, PGResult)? {
        let head = try db.run(PostgresStatements.list, [.text(id)])
        guard head.rowCount == 1 else { return nil }
        let rows = try db.run(PostgresStatements.rows, [.text(id)])
        let deletedAt = head.int(0, 2)
        let list = StoredList(
            id: id, version: head.int(0, 0), meta: head.bytes(0, 1), rows: [], deletedAt: deletedAt > 0 ? deletedAt : nil)
        return (list, rows)
    }

    private static func storedRow(_ rows: PGResult, _ index: Int) -> StoredRow {
        StoredRow(
            key: rows.text(index, 0), section: rows.text(index, 1), orderKey: rows.text(index, 2),
            body: rows.bytes(index, 3), version: rows.int(index, 4))
    }

    public func loadTombstones() throws -> [String: Int] {
        try versions().tombstones
    }

    public func versions() throws -> StoredVersions {
        try pool.withConnection { db in
            let result = try db.run(PostgresStatements.versions)
            var versions = StoredVersions(lists: [:], tombstones: [:])
            for index in 0..<result.rowCount {
                if result.bytes(index, 2) == [1] {
                    versions.tombstones[result.text(index, 0)] = result.int(index, 1)
                } else {
                    versions.lists[result.text(index, 0)] = result.int(index, 1)
                }
            }
            return versions
        }
    }

    public func changes(of id: String, after version: Int) throws -> [StoredChange]? {
        let result = try pool.withConnection { try $0.run(PostgresStatements.changes, [.text(id), .int(version)]) }
        guard result.rowCount > 0 else { return nil }
        let first = result.int(0, 0)
        guard first == version || first == version + 1 else { return nil }
        return try ((first == version ? 1 : 0)..<result.rowCount).map { index in
            StoredChange(
                version: result.int(index, 0), patch: result.bytes(index, 1),
                orderKeys: try StoredOrderKey.decode(result.bytes(index, 2)))
        }
    }

    public func checkWritable() throws {
        _ = try pool.withConnection { try $0.run(PostgresStatements.touchHealth) }
    }

    public func setting(_ name: String, orInsert make: @Sendable () -> [UInt8]) throws -> [UInt8] {
        try pool.withConnection { db in
            let found = try db.run(PostgresStatements.setting, [.text(name)])
            if found.rowCount == 1 { return found.bytes(0, 0) }
            try db.run(PostgresStatements.insertSetting, [.text(name), .bytes(make())])
            // Another instance may have inserted first: its value is the one everybody uses.
            return try db.run(PostgresStatements.setting, [.text(name)]).bytes(0, 0)
        }
    }

    /// Listens on a connection of its own (`PostgresListener`): `receive` gets `.resync` at once
    /// and after each reconnection, and `.committed` for every other instance's commit (this
    /// instance's own are not reported), on the listener's thread, in order.
    public func startChangeFeed(_ receive: @escaping @Sendable (StoreFeedEvent) -> Void) {
        let notifier = notifier
        listener.withLock { listener in
            guard listener == nil else { return }
            listener = PostgresListener(address: address, ownPID: { notifier.senderPID }, receive: receive)
        }
    }

    public func close() {
        pool.close()
        notifier.stop()
        listener.withLock { $0?.stop() }
    }
}
