import ListStore
import Synchronization

/// A real SQLite store that a test can make unreachable: while `down`, every call throws
/// `StoreError(.unavailable)`, as a PostgreSQL store does while its server is away. (The real
/// outage, PostgreSQL stopped and started, is exercised by the cluster integration test.)
final class SwitchableStore: Store {
    let base: SQLiteStore
    let down = Atomic<Bool>(false)

    init(_ base: SQLiteStore) { self.base = base }

    private func reachable() throws {
        if down.load(ordering: .relaxed) { throw StoreError(.unavailable, "test: the store is down") }
    }

    var location: String { base.location }
    func forEachList(_ visit: (StoredList, Int, StoredRowReader) throws -> Void) throws {
        try reachable()
        try base.forEachList(visit)
    }
    func load(id: String) throws -> StoredList? {
        try reachable()
        return try base.load(id: id)
    }
    func loadTombstones() throws -> [String: Int] {
        try reachable()
        return try base.loadTombstones()
    }
    func versions() throws -> StoredVersions {
        try reachable()
        return try base.versions()
    }
    func commit(_ write: StoreWrite, deadline: ContinuousClock.Instant?) throws {
        try reachable()
        try base.commit(write, deadline: deadline)
    }
    func delete(id: String, version: Int, deadline: ContinuousClock.Instant?) throws {
        try reachable()
        try base.delete(id: id, version: version, deadline: deadline)
    }
    func changes(of id: String, after version: Int) throws -> [StoredChange]? {
        try reachable()
        return try base.changes(of: id, after: version)
    }
    func checkWritable() throws {
        try reachable()
        try base.checkWritable()
    }
    func setting(_ name: String, orInsert make: @Sendable () -> [UInt8]) throws -> [UInt8] {
        try reachable()
        return try base.setting(name, orInsert: make)
    }
    func startChangeFeed(_ receive: @escaping @Sendable (StoreFeedEvent) -> Void) { base.startChangeFeed(receive) }
    func close() { base.close() }
}
