import Foundation
import Synchronization
import Testing

@testable import ListStore

/// What only the PostgreSQL store has to show: several stores (instances) on one database.
@Suite struct PostgresStoreTests {
    let tests = ListStoreTests()

    /// Runs `bodies` at once on their own threads; their results in order.
    func together<T: Sendable>(_ bodies: [@Sendable () -> T]) -> [T] {
        let results = Mutex<[Int: T]>([:])
        DispatchQueue.concurrentPerform(iterations: bodies.count) { index in
            let value = bodies[index]()
            results.withLock { $0[index] = value }
        }
        return results.withLock { dictionary in bodies.indices.map { dictionary[$0]! } }
    }

    @Test func twoInstancesRacingForOneVersionLetExactlyOneWin() throws {
        let database = try TestDatabase(.postgres)
        let stores = [try database.open(), try database.open()]
        for version in 1...20 {
            let outcomes = together(
                stores.indices.map { index in
                    { @Sendable in
                        Result { try stores[index].commit(tests.write("a", version, rows: [tests.row("r\(index)", "s", "a\(index)")])) }
                    }
                })
            let conflicts = outcomes.compactMap { outcome -> VersionConflict? in
                if case .failure(let conflict as VersionConflict) = outcome { return conflict } else { return nil }
            }
            #expect(outcomes.filter { if case .success = $0 { true } else { false } }.count == 1, "version \(version)")
            #expect(conflicts.map(\.stored) == [version], "the loser learns the winner's version")
        }
        #expect(try stores[1].versions().lists == ["a": 20])
        #expect(try stores[0].changes(of: "a", after: 0)?.map(\.version) == Array(1...20))
    }

    @Test func instancesStartingTogetherCreateTheSchemaOnce() throws {
        let database = try TestDatabase(.postgres)
        let opened = together((0..<4).map { _ in { @Sendable in Result { try database.open() } } })
        let stores = try opened.map { try $0.get() }
        try stores[0].commit(tests.write("a", 1))
        for store in stores { #expect(try store.versions().lists == ["a": 1]) }
        let connection = try PGConnection(PostgresAddress(database.postgresURL))
        #expect(try connection.query("SELECT count(*) FROM schema_version").int(0, 0) == 1)
        #expect(try connection.query("SELECT version FROM schema_version").int(0, 0) == PostgresSchema.version)
    }

    /// A write waits for the list's advisory lock, or for a table lock (`LOCK TABLE changes`),
    /// held by another session at most until its deadline (`lock_timeout` set per transaction to
    /// the time left), then throws `.busy`, not `.unavailable`; and succeeds once it is free.
    @Test func locksHeldElsewhereAreWaitedForUntilTheDeadline() throws {
        let database = try TestDatabase(.postgres)
        let store = try database.open()
        try store.commit(tests.write("a", 1))
        let other = try PGConnection(PostgresAddress(database.postgresURL))
        for lock in ["SELECT pg_advisory_lock(1818850164, hashtext('a'))", "BEGIN; LOCK TABLE changes IN ACCESS EXCLUSIVE MODE"] {
            try other.execute(lock)
            let started = ContinuousClock.now
            #expect { try store.commit(tests.write("a", 2), deadline: started + .milliseconds(400)) } throws: {
                ($0 as? StoreError)?.kind == .busy
            }
            let waited = ContinuousClock.now - started
            #expect(waited >= .milliseconds(350) && waited < .milliseconds(2_000), "\(lock): waited \(waited)")
            #expect { try store.commit(tests.write("a", 2), deadline: .now - .seconds(1)) } throws: {
                ($0 as? StoreError)?.kind == .busy
            }
            try other.execute(lock.hasPrefix("BEGIN") ? "ROLLBACK" : "SELECT pg_advisory_unlock_all()")
        }
        try store.commit(tests.write("a", 2), deadline: .now + .seconds(5))
        #expect(try store.versions().lists == ["a": 2])
    }

    /// A schema-1 database (rows without versions) is migrated on start: its rows read version 0
    /// (the registry gives them the list's version), rows written since the write's.
    @Test func aSchema1DatabaseGetsRowVersions() throws {
        let database = try TestDatabase(.postgres)
        let connection = try PGConnection(PostgresAddress(database.postgresURL))
        try connection.execute(PostgresSchema.version1)
        try connection.execute(
            """
            INSERT INTO schema_version VALUES (1);
            INSERT INTO lists VALUES ('a', 4, 'm'::bytea);
            INSERT INTO rows VALUES ('a', 'r1'::bytea, 's'::bytea, 'a', '{}'::bytea), ('a', 'r2'::bytea, 's'::bytea, 'b', '{}'::bytea);
            """)
        let store = try database.open()
        #expect(try connection.query("SELECT version FROM schema_version").int(0, 0) == PostgresSchema.version)
        #expect(try store.load(id: "a")?.rows.map(\.version) == [0, 0])
        try store.commit(tests.write("a", 5, rows: [tests.row("r2", "s", "b")]))
        #expect(try store.load(id: "a")?.rows.map(\.version) == [0, 5])
    }

    @Test func aSchemaNewerThanTheProgramIsRefused() throws {
        let database = try TestDatabase(.postgres)
        _ = try database.open()
        let connection = try PGConnection(PostgresAddress(database.postgresURL))
        try connection.execute("UPDATE schema_version SET version = 99")
        #expect { try database.open() } throws: { ($0 as? StoreError)?.kind == .failed }
    }

    @Test func aBigWriteIsStoredWholeAndInOrder() throws {
        let database = try TestDatabase(.postgres)
        let store = try database.open()
        let count = PostgresStore.rowsPerStatement * 2 + 17
        let rows = (0..<count).map { tests.row("k\($0)", "s", String(format: "a%06d", count - $0), "{\"n\":\($0)}") }
        try store.commit(tests.write("big", 1, rows: rows))
        let loaded = try #require(try store.load(id: "big"))
        #expect(loaded.rows.count == count)
        #expect(loaded.rows.map(\.version) == Array(repeating: 1, count: count))
        #expect(loaded.rows.first?.body == rows.last?.body)
        #expect(loaded.rows.map(\.orderKey) == rows.map(\.orderKey).sorted())
        try store.commit(tests.write("big", 2, deleting: rows.prefix(count - 1).map(\.key)))
        #expect(try store.load(id: "big")?.rows.map(\.key) == [rows[count - 1].key])
    }

    @Test func orderKeysSortByBytesAsInSQLite() throws {
        let database = try TestDatabase(.postgres)
        let store = try database.open()
        let keys = ["a", "B", "a0", "Z", "b", "aZ", "0"]
        try store.commit(tests.write("a", 1, rows: keys.map { tests.row("r" + $0, "s", $0) }))
        #expect(try store.load(id: "a")?.rows.map(\.orderKey) == keys.sorted())
    }

    @Test func theLocationNeverShowsThePassword() throws {
        let database = try TestDatabase(.postgres)
        let store = try database.open()
        let password = try #require(database.postgresURL.split(separator: ":")[2].split(separator: "@").first)
        #expect(!store.location.contains(password))
        #expect(store.location.hasPrefix("postgresql://postgres@127.0.0.1:"))
    }

    @Test(.timeLimit(.minutes(1)))
    func nothingListeningIsUnavailableNotAHang() throws {
        let closedPort = "postgresql://postgres:secret@127.0.0.1:1/postgres"
        #expect { try PostgresStore(url: closedPort) } throws: { error in
            let error = error as? StoreError
            return error?.kind == .unavailable && error?.message.contains("secret") == false
        }
    }

    @Test func aURLLibpqCannotParseIsAClearErrorWithoutTheURL() {
        #expect { try PostgresStore(url: "postgresql://user:secret@host:notaport/db?nonsense=1") } throws: { error in
            (error as? StoreError)?.message.contains("secret") == false
        }
    }
}

/// How PostgreSQL's errors map to what an HTTP answer can say.
@Suite struct PostgresErrorKindTests {
    @Test func sqlStatesMapToKinds() {
        func kind(_ state: String?, broken: Bool = false) -> StoreError.Kind {
            StoreError(postgres: state, connectionBroken: broken, "").kind
        }
        #expect(kind("53100") == .full, "disk full")
        #expect(kind("08006") == .unavailable, "connection failure")
        #expect(kind("57P01") == .unavailable, "admin shutdown")
        #expect(kind("57014") == .busy, "statement timeout or cancelled: a write gave up waiting")
        #expect(kind("55P03") == .busy, "lock_timeout: another session holds the lock")
        #expect(kind("40001") == .unavailable, "serialization failure")
        #expect(kind("25006") == .unavailable, "read-only (a standby)")
        #expect(kind("23505") == .failed, "unique violation: a bug, not an outage")
        #expect(kind(nil, broken: true) == .unavailable)
        #expect(kind("42P01") == .failed)
    }
}
