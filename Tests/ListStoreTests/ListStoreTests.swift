import Foundation
import Testing
@testable import ListStore

@Suite struct ListStoreTests {
    /// A fresh database file in a temporary folder, removed with its WAL when the test ends.
    final class TemporaryDatabase {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("liststore-\(UUID().uuidString)")
        var path: String { folder.appendingPathComponent("test.sqlite").path }
        init() { try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    func row(_ key: String, _ section: String, _ order: String, _ body: String = "{}") -> StoredRow {
        StoredRow(key: key, section: section, orderKey: order, body: Array(body.utf8))
    }

    func write(_ id: String, _ version: Int, rows: [StoredRow] = [], deleting: [String] = [], patch: String = "[]") -> StoreWrite {
        StoreWrite(id: id, version: version, meta: Array("meta\(version)".utf8), upsertedRows: rows,
                   deletedRowKeys: deleting, patch: Array(patch.utf8))
    }

    @Test func commitsAndLoadsRowsInOrderKeyOrder() throws {
        let store = try ListStore(path: ":memory:")
        try store.commit(write("a", 1, rows: [row("r2", "s", "b"), row("r1", "s", "a"), row("r3", "t", "c")]))
        let lists = try store.loadAll()
        #expect(lists.count == 1)
        #expect(lists[0].version == 1)
        #expect(lists[0].meta == Array("meta1".utf8))
        #expect(lists[0].rows.map(\.key) == ["r1", "r2", "r3"])
        #expect(lists[0].rows.map(\.section) == ["s", "s", "t"])
    }

    @Test func laterWritesTouchOnlyTheirRows() throws {
        let store = try ListStore(path: ":memory:")
        try store.commit(write("a", 1, rows: [row("r1", "s", "a", "one"), row("r2", "s", "b", "two")]))
        try store.commit(write("a", 2, rows: [row("r1", "t", "c", "uno"), row("r3", "s", "ab")], deleting: ["r2"]))
        let rows = try store.loadAll()[0].rows
        #expect(rows.map(\.key) == ["r3", "r1"])
        #expect(rows[1] == row("r1", "t", "c", "uno"))
    }

    @Test func rejectsAVersionThatDoesNotFollowAndChangesNothing() throws {
        let store = try ListStore(path: ":memory:")
        try store.commit(write("a", 1, rows: [row("r1", "s", "a")]))
        #expect(throws: ListStore.VersionConflict.self) { try store.commit(write("a", 3, rows: [row("r9", "s", "z")])) }
        #expect(throws: ListStore.VersionConflict.self) { try store.commit(write("b", 2)) }
        let lists = try store.loadAll()
        #expect(lists.map(\.id) == ["a"])
        #expect(lists[0].rows.map(\.key) == ["r1"])
        #expect(lists[0].version == 1)
    }

    @Test func changeLogResumesAndForgetsOldEntries() throws {
        let store = try ListStore(path: ":memory:", changeLogLimit: 3)
        for version in 1...5 { try store.commit(write("a", version, patch: "[\(version)]")) }
        #expect(try store.changes(of: "a", after: 5) == [])
        #expect(try store.changes(of: "a", after: 3)?.map(\.version) == [4, 5])
        #expect(try store.changes(of: "a", after: 2)?.map(\.version) == [3, 4, 5])
        #expect(try store.changes(of: "a", after: 2)?.first?.patch == Array("[3]".utf8))
        #expect(try store.changes(of: "a", after: 1) == nil, "version 2's patch was trimmed")
        #expect(try store.changes(of: "a", after: 6) == nil, "a version from the future")
        #expect(try store.changes(of: "nope", after: 0) == nil)
    }

    @Test func deleteRemovesEverything() throws {
        let store = try ListStore(path: ":memory:")
        try store.commit(write("a", 1, rows: [row("r1", "s", "a")]))
        #expect(try store.delete(id: "a", version: 2))
        #expect(try store.delete(id: "a", version: 2) == false)
        #expect(try store.loadAll().isEmpty)
        #expect(try store.changes(of: "a", after: 0) == nil)
    }

    @Test func aListCreatedAgainContinuesTheVersionsOfTheDeletedOne() throws {
        let database = TemporaryDatabase()
        do {
            let store = try ListStore(path: database.path)
            try store.commit(write("a", 1))
            try store.commit(write("a", 2))
            try store.delete(id: "a", version: 3)
            #expect(throws: ListStore.VersionConflict.self, "not from 1 again") { try store.commit(write("a", 1)) }
        }
        let store = try ListStore(path: database.path)
        #expect(try store.loadTombstones() == ["a": 3], "the tombstone survives a restart")
        try store.commit(write("a", 4))
        #expect(try store.loadTombstones().isEmpty)
        #expect(try store.changes(of: "a", after: 2) == nil, "no resume across the deletion")
    }

    @Test func survivesReopeningTheFile() throws {
        let database = TemporaryDatabase()
        do {
            let store = try ListStore(path: database.path)
            try store.commit(write("a", 1, rows: [row("r1", "s", "a", "body")]))
            try store.commit(write("a", 2, rows: [row("r2", "s", "b")]))
            try store.checkWritable()
        }
        let reopened = try ListStore(path: database.path)
        let lists = try reopened.loadAll()
        #expect(lists.count == 1)
        #expect(lists[0].version == 2)
        #expect(lists[0].rows == [row("r1", "s", "a", "body"), row("r2", "s", "b")])
        #expect(try reopened.changes(of: "a", after: 0)?.map(\.version) == [1, 2])
    }

    @Test func keysWithAnyCharactersRoundTrip() throws {
        let store = try ListStore(path: ":memory:")
        let odd = "k'\"; DROP TABLE rows; --\u{0}é🙂"
        try store.commit(write("a", 1, rows: [row(odd, odd, "a", odd)]))
        #expect(try store.loadAll()[0].rows == [row(odd, odd, "a", odd)])
    }

    @Test func unopenablePathIsAClearError() {
        #expect(throws: SQLiteError.self) { try ListStore(path: "/nonexistent-dir/x/y.sqlite") }
    }
}
