import Foundation
import Testing

@testable import ListStore

/// The store's behaviour, the same for both backends.
@Suite struct ListStoreTests {
    /// A fresh SQLite file in a temporary folder, removed with its WAL when the test ends
    /// (for SQLite-only tests; the others use `TestDatabase`).
    final class TemporaryDatabase {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("liststore-\(UUID().uuidString)")
        var path: String { folder.appendingPathComponent("test.sqlite").path }
        init() { try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    /// A row to write, or (with `version`: the version of the write that stored it) as read back.
    func row(_ key: String, _ section: String, _ order: String, _ body: String = "{}", version: Int = 0) -> StoredRow {
        StoredRow(key: key, section: section, orderKey: order, body: Array(body.utf8), version: version)
    }

    func write(_ id: String, _ version: Int, rows: [StoredRow] = [], deleting: [String] = [], patch: String = "[]") -> StoreWrite {
        StoreWrite(
            id: id, version: version, meta: Array("meta\(version)".utf8), upsertedRows: rows,
            deletedRowKeys: deleting, patch: Array(patch.utf8))
    }

    @Test(arguments: Backend.allCases) func commitsAndLoadsRowsInOrderKeyOrder(_ backend: Backend) throws {
        let database = try TestDatabase(backend)
        let store = try database.open()
        try store.commit(write("a", 1, rows: [row("r2", "s", "b"), row("r1", "s", "a"), row("r3", "t", "c")]))
        let lists = try store.loadAll()
        #expect(lists.count == 1)
        #expect(lists[0].version == 1)
        #expect(lists[0].meta == Array("meta1".utf8))
        #expect(lists[0].rows.map(\.key) == ["r1", "r2", "r3"])
        #expect(lists[0].rows.map(\.section) == ["s", "s", "t"])
    }

    @Test(arguments: Backend.allCases) func laterWritesTouchOnlyTheirRows(_ backend: Backend) throws {
        let database = try TestDatabase(backend)
        let store = try database.open()
        try store.commit(write("a", 1, rows: [row("r1", "s", "a", "one"), row("r2", "s", "b", "two")]))
        try store.commit(write("a", 2, rows: [row("r1", "t", "c", "uno"), row("r3", "s", "ab")], deleting: ["r2"]))
        let rows = try store.loadAll()[0].rows
        #expect(rows.map(\.key) == ["r3", "r1"])
        #expect(rows[1] == row("r1", "t", "c", "uno", version: 2))
    }

    @Test(arguments: Backend.allCases) func rejectsAVersionThatDoesNotFollowAndChangesNothing(_ backend: Backend) throws {
        let database = try TestDatabase(backend)
        let store = try database.open()
        try store.commit(write("a", 1, rows: [row("r1", "s", "a")]))
        #expect(throws: VersionConflict.self) { try store.commit(write("a", 3, rows: [row("r9", "s", "z")])) }
        #expect(throws: VersionConflict.self) { try store.commit(write("b", 2)) }
        let lists = try store.loadAll()
        #expect(lists.map(\.id) == ["a"])
        #expect(lists[0].rows.map(\.key) == ["r1"])
        #expect(lists[0].version == 1)
    }

    @Test(arguments: Backend.allCases) func changeLogResumesAndForgetsOldEntries(_ backend: Backend) throws {
        let database = try TestDatabase(backend)
        let store = try database.open(changeLogLimit: 3)
        for version in 1...5 { try store.commit(write("a", version, patch: "[\(version)]")) }
        #expect(try store.changes(of: "a", after: 5) == [])
        #expect(try store.changes(of: "a", after: 3)?.map(\.version) == [4, 5])
        #expect(try store.changes(of: "a", after: 2)?.map(\.version) == [3, 4, 5])
        #expect(try store.changes(of: "a", after: 2)?.first?.patch == Array("[3]".utf8))
        #expect(try store.changes(of: "a", after: 1) == nil, "version 2's patch was trimmed")
        #expect(try store.changes(of: "a", after: 6) == nil, "a version from the future")
        #expect(try store.changes(of: "nope", after: 0) == nil)
    }

    @Test(arguments: Backend.allCases) func deleteRemovesEverything(_ backend: Backend) throws {
        let database = try TestDatabase(backend)
        let store = try database.open()
        try store.commit(write("a", 1, rows: [row("r1", "s", "a")]))
        try store.delete(id: "a", version: 2)
        #expect(throws: VersionConflict.self, "deleting it twice") { try store.delete(id: "a", version: 2) }
        #expect(try store.loadAll().isEmpty)
        #expect(try store.changes(of: "a", after: 0) == nil)
    }

    @Test(arguments: Backend.allCases) func aListCreatedAgainContinuesTheVersionsOfTheDeletedOne(_ backend: Backend) throws {
        let database = try TestDatabase(backend)
        do {
            let store = try database.open()
            defer { store.close() }
            try store.commit(write("a", 1))
            try store.commit(write("a", 2))
            try store.delete(id: "a", version: 3)
            #expect(throws: VersionConflict.self, "not from 1 again") { try store.commit(write("a", 1)) }
        }
        let store = try database.open()
        #expect(try store.loadTombstones() == ["a": 3], "the tombstone survives a restart")
        #expect(try store.load(id: "a") == nil)
        try store.commit(write("a", 4))
        #expect(try store.loadTombstones().isEmpty, "only deleted ids not created again")
        #expect(try store.versions() == StoredVersions(lists: ["a": 4], tombstones: [:]))
        #expect(try store.changes(of: "a", after: 2) == nil, "no resume across the deletion")
        #expect(try store.load(id: "a")?.deletedAt == 3, "an instance holding version 2 learns it was deleted")
        #expect(try store.loadAll().map(\.deletedAt) == [3])
        try store.commit(write("a", 5))
        try store.delete(id: "a", version: 6)
        #expect(try store.loadTombstones() == ["a": 6], "deleted again: the newer tombstone")
        try store.commit(write("a", 7))
        #expect(try store.load(id: "a")?.deletedAt == 6)
    }

    @Test(arguments: Backend.allCases) func survivesReopening(_ backend: Backend) throws {
        let database = try TestDatabase(backend)
        do {
            let store = try database.open()
            defer { store.close() }
            try store.commit(write("a", 1, rows: [row("r1", "s", "a", "body")]))
            try store.commit(write("a", 2, rows: [row("r2", "s", "b")]))
            try store.checkWritable()
        }
        let reopened = try database.open()
        let lists = try reopened.loadAll()
        #expect(lists.count == 1)
        #expect(lists[0].version == 2)
        #expect(lists[0].rows == [row("r1", "s", "a", "body", version: 1), row("r2", "s", "b", version: 2)])
        #expect(try reopened.changes(of: "a", after: 0)?.map(\.version) == [1, 2])
    }

    @Test(arguments: Backend.allCases) func keysWithAnyCharactersRoundTrip(_ backend: Backend) throws {
        let database = try TestDatabase(backend)
        let store = try database.open()
        let odd = "k'\"; DROP TABLE rows; --\u{0}é🙂"
        try store.commit(write("a", 1, rows: [row(odd, odd, "a", odd)]))
        #expect(try store.loadAll()[0].rows == [row(odd, odd, "a", odd, version: 1)])
    }

    @Test func unopenablePathIsAClearError() {
        #expect(throws: SQLiteError.self) { try SQLiteStore(path: "/nonexistent-dir/x/y.sqlite") }
    }
}

/// What the `Store` protocol adds for several instances: one list read back, versions for
/// reconciliation, order keys in the change log, deletions checked like writes, settings.
@Suite struct StoreProtocolTests {
    let tests = ListStoreTests()

    @Test(arguments: Backend.allCases) func loadsOneListAndReportsEveryVersion(_ backend: Backend) throws {
        let database = try TestDatabase(backend)
        let store = try database.open()
        try store.commit(tests.write("a", 1, rows: [tests.row("r2", "s", "b"), tests.row("r1", "s", "a")]))
        try store.commit(tests.write("b", 1))
        try store.commit(tests.write("b", 2))
        try store.delete(id: "b", version: 3)
        #expect(try store.load(id: "a")?.rows.map(\.key) == ["r1", "r2"])
        #expect(try store.load(id: "a")?.deletedAt == nil, "never deleted")
        #expect(try store.load(id: "b") == nil)
        #expect(try store.versions() == StoredVersions(lists: ["a": 1], tombstones: ["b": 3]))
    }

    @Test(arguments: Backend.allCases) func theChangeLogKeepsTheOrderKeysOfStoredRows(_ backend: Backend) throws {
        let database = try TestDatabase(backend)
        let store = try database.open()
        try store.commit(tests.write("a", 1, rows: [tests.row("r1", "s", "a"), tests.row("ü 2", "s", "b")]))
        try store.commit(tests.write("a", 2, rows: [tests.row("r3", "s", "ab")], deleting: ["r1"]))
        let changes = try #require(try store.changes(of: "a", after: 0))
        #expect(
            changes.map(\.orderKeys) == [
                [StoredOrderKey(rowKey: "r1", orderKey: "a"), StoredOrderKey(rowKey: "ü 2", orderKey: "b")],
                [StoredOrderKey(rowKey: "r3", orderKey: "ab")],
            ])
    }

    @Test(arguments: Backend.allCases) func aDeletionMustFollowTheCommittedVersion(_ backend: Backend) throws {
        let database = try TestDatabase(backend)
        let store = try database.open()
        try store.commit(tests.write("a", 1))
        #expect(throws: VersionConflict.self) { try store.delete(id: "a", version: 3) }
        #expect(try store.versions().lists == ["a": 1])
        try store.delete(id: "a", version: 2)
        #expect(throws: VersionConflict.self) { try store.commit(tests.write("a", 1)) }
        try store.commit(tests.write("a", 3))
    }

    @Test(arguments: Backend.allCases) func aSettingIsMadeOnceAndKept(_ backend: Backend) throws {
        let database = try TestDatabase(backend)
        do {
            let store = try database.open()
            defer { store.close() }
            #expect(try store.setting("secret", orInsert: { [1, 2, 3] }) == [1, 2, 3])
            #expect(try store.setting("secret", orInsert: { [9] }) == [1, 2, 3])
        }
        let reopened = try database.open()
        #expect(try reopened.setting("secret", orInsert: { [9] }) == [1, 2, 3])
    }

    @Test(arguments: Backend.allCases) func aClosedStoreRefusesCalls(_ backend: Backend) throws {
        let database = try TestDatabase(backend)
        let store = try database.open()
        store.close()
        #expect(throws: StoreError.self) { try store.loadAll() }
    }
}
