import Foundation
import ListModel
import Synchronization
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService
@testable import ListStore

/// `--write-timeout` (issue 25): a write waits for its list at most that long in all, behind the
/// list's other writers and for the store's locks, then gets `RegistryError.busy` (503).
@Suite("Write timeout")
struct WriteTimeoutTests {
    static let document = ListDocument(title: "T", sections: [Section(key: "s", rows: [Row(key: "a")])])

    /// Writers queued behind a writer that holds the list give up at their deadline, each
    /// `writeTimeout` after it began (not one after another), while another list is written at once.
    @Test func queuedWritersGiveUpAtTheirDeadlineAndOtherListsGoOn() throws {
        let registry = try ListRegistry(store: try SQLiteStore(path: ":memory:"), writeTimeout: .milliseconds(300))
        try registry.write(id: "held", mayCreate: true) { _ in Self.document }
        try registry.write(id: "free", mayCreate: true) { _ in Self.document }
        let entry = try registry.slot(for: "held", creating: false)
        entry.writer.lock()
        let outcomes = Mutex<[(Duration, RegistryError?)]>([])
        let threads = (0..<4).map { index in
            Thread {
                let started = ContinuousClock.now
                do {
                    try registry.write(id: "held") { $0! }
                    outcomes.withLock { $0.append((ContinuousClock.now - started, nil)) }
                } catch {
                    outcomes.withLock { $0.append((ContinuousClock.now - started, error as? RegistryError)) }
                }
            }
        }
        for thread in threads {
            thread.start()
            Thread.sleep(forTimeInterval: 0.05)
        }
        let started = ContinuousClock.now
        try registry.write(id: "free") { _ in Self.document }
        #expect(ContinuousClock.now - started < .milliseconds(200), "another list's write waited")
        let deadline = ContinuousClock.now + .seconds(20)
        while threads.contains(where: { !$0.isFinished }) && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        entry.writer.unlock()
        let results = outcomes.withLock { $0 }
        #expect(results.count == 4)
        for (waited, error) in results {
            guard case .busy(let id, let seconds, _)? = error else {
                Issue.record("expected busy, got \(String(describing: error))")
                continue
            }
            #expect(id == "held" && seconds == 0.3)
            #expect(waited >= .milliseconds(290) && waited < .milliseconds(1_500), "waited \(waited)")
        }
        #expect(registry.snapshot(id: "held")?.version == 1)
        try registry.write(id: "held") { _ in Self.document }
        #expect(registry.snapshot(id: "held")?.version == 2)
    }

    /// Past `maxQueuedWriters` waiting, a write to the list is refused at once (queueFull),
    /// while those queued wait for their deadline as usual.
    @Test func aFullQueueRefusesAtOnce() throws {
        let registry = try ListRegistry(store: try SQLiteStore(path: ":memory:"), writeTimeout: .seconds(2), maxQueuedWriters: 2)
        try registry.write(id: "held", mayCreate: true) { _ in Self.document }
        let entry = try registry.slot(for: "held", creating: false)
        entry.writer.lock()
        let queued = (0..<2).map { _ in Thread { _ = try? registry.write(id: "held") { $0! } } }
        queued.forEach { $0.start() }
        let deadline = ContinuousClock.now + .seconds(10)
        while entry.writer.waiterCount < 2 && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.002) }
        let started = ContinuousClock.now
        #expect(throws: RegistryError.queueFull(id: "held", waiting: 2)) { try registry.write(id: "held") { $0! } }
        #expect(ContinuousClock.now - started < .milliseconds(500))
        entry.writer.unlock()
        while queued.contains(where: { !$0.isFinished }) && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        #expect(registry.snapshot(id: "held")?.version == 3, "the two queued writes went through once the lock was let go")
        let error = RegistryError.queueFull(id: "held", waiting: 2)
        #expect(error.status == .serviceUnavailable && error.responseHeaders["Retry-After"] == "1")
        #expect(
            error.problemDetail?.hasPrefix("List \"held\" is being written by another writer (or locked in the store), and 2 more") == true)
    }

    /// SQLite: another process (here, another connection) holding the database's write lock
    /// makes a write wait until its deadline, not SQLite's usual 5 s busy timeout, and answer
    /// busy, not "the store cannot be reached".
    @Test func anSQLiteLockHeldElsewhereIsWaitedForUntilTheDeadline() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "write-timeout-\(UInt32.random(in: 0...UInt32.max)).sqlite"
        ).path
        defer { for suffix in ["", "-wal", "-shm", "-reserve"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let registry = try ListRegistry(store: try SQLiteStore(path: path, diskReserve: 0), writeTimeout: .milliseconds(400))
        try registry.write(id: "l", mayCreate: true) { _ in Self.document }
        let other = try SQLiteConnection(path: path)
        try other.execute("BEGIN IMMEDIATE")
        let started = ContinuousClock.now
        var caught: (any Error)?
        do { try registry.write(id: "l") { $0! } } catch { caught = error }
        let waited = ContinuousClock.now - started
        try other.execute("ROLLBACK")
        guard case .busy(let id, _, _)? = caught as? RegistryError else {
            Issue.record("expected busy, got \(String(describing: caught))")
            return
        }
        #expect(id == "l")
        #expect(waited >= .milliseconds(350) && waited < .milliseconds(2_000), "waited \(waited)")
        try registry.write(id: "l") { $0! }
        #expect(registry.snapshot(id: "l")?.version == 2)
    }

    @Test func busyAnswers503WithRetryAfterAndADetailNamingTheList() {
        let error = RegistryError.busy(id: "groceries", seconds: 10, cause: "test")
        #expect(error.status == .serviceUnavailable)
        #expect(error.responseHeaders["Retry-After"] == "1")
        #expect(
            error.problemDetail == "List \"groceries\" is being written by another writer (or locked in the store); gave up after 10 s.")
        #expect(RegistryError.busy(id: "x", seconds: 2.5, cause: "").problemDetail?.hasSuffix("gave up after 2.5 s.") == true)
        #expect(StoreError(postgres: "55P03", connectionBroken: false, "lock").kind == .busy)
        #expect(StoreError(postgres: "57014", connectionBroken: false, "cancel").kind == .busy)
        #expect(StoreError(postgres: "57P01", connectionBroken: false, "shutdown").kind == .unavailable)
    }
}
