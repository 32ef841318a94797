import Foundation
import Testing

@testable import ListStore

@Suite struct SchemaMigrationTests {
    /// The `changes` table as schema version 1 made it.
    static let version1Changes = """
        CREATE TABLE changes (
          list_id TEXT NOT NULL,
          version INTEGER NOT NULL,
          patch   BLOB NOT NULL,
          PRIMARY KEY (list_id, version)
        ) WITHOUT ROWID;
        INSERT INTO changes VALUES ('a', 1, CAST('[1]' AS BLOB)), ('a', 2, CAST('[2]' AS BLOB));
        PRAGMA user_version = 1;
        """

    /// A version-1 database keeps its change log, now in a rowid table, and takes new writes.
    @Test func aVersion1ChangeLogIsCarriedOver() throws {
        let database = ListStoreTests.TemporaryDatabase()
        do {
            let old = try SQLiteConnection(path: database.path)
            try old.execute(Self.version1Changes)
            try old.execute(
                """
                CREATE TABLE lists (id TEXT PRIMARY KEY, version INTEGER NOT NULL, meta BLOB NOT NULL) WITHOUT ROWID;
                INSERT INTO lists VALUES ('a', 2, CAST('m' AS BLOB));
                """)
        }
        let store = try SQLiteStore(path: database.path)
        #expect(
            try store.changes(of: "a", after: 0) == [
                StoredChange(version: 1, patch: Array("[1]".utf8), orderKeys: []),
                StoredChange(version: 2, patch: Array("[2]".utf8), orderKeys: []),
            ])
        try store.commit(StoreWrite(id: "a", version: 3, meta: [], upsertedRows: [], deletedRowKeys: [], patch: Array("[3]".utf8)))
        #expect(try store.changes(of: "a", after: 2)?.map(\.version) == [3])
        let check = try SQLiteConnection(path: database.path)
        let query = try check.statement("SELECT sql FROM sqlite_master WHERE name = 'changes'")
        #expect(try query.step())
        #expect(!query.text(0).contains("WITHOUT ROWID"))
        let version = try check.statement("PRAGMA user_version")
        #expect(try version.step())
        #expect(version.int(0) == Schema.version)
    }

    /// A version-3 database's rows get a version column: 0 for the rows it held (the registry
    /// gives them the list's version), the write's version for rows written since.
    @Test func aVersion3DatabaseGetsRowVersions() throws {
        let database = ListStoreTests.TemporaryDatabase()
        do {
            let old = try SQLiteConnection(path: database.path)
            try old.execute(
                """
                CREATE TABLE lists (id TEXT PRIMARY KEY, version INTEGER NOT NULL, meta BLOB NOT NULL) WITHOUT ROWID;
                CREATE TABLE rows (
                  list_id TEXT NOT NULL, row_key TEXT NOT NULL, section_key TEXT NOT NULL,
                  order_key TEXT NOT NULL, body BLOB NOT NULL, PRIMARY KEY (list_id, row_key)
                ) WITHOUT ROWID;
                CREATE TABLE changes (
                  list_id TEXT NOT NULL, version INTEGER NOT NULL, patch BLOB NOT NULL,
                  order_keys BLOB NOT NULL DEFAULT x'', PRIMARY KEY (list_id, version)
                );
                INSERT INTO lists VALUES ('a', 7, CAST('m' AS BLOB));
                INSERT INTO rows VALUES ('a', 'r1', 's', 'a', CAST('{}' AS BLOB)), ('a', 'r2', 's', 'b', CAST('{}' AS BLOB));
                PRAGMA user_version = 3;
                """)
        }
        let store = try SQLiteStore(path: database.path)
        #expect(try store.load(id: "a")?.rows.map(\.version) == [0, 0])
        try store.commit(
            StoreWrite(
                id: "a", version: 8, meta: Array("m".utf8),
                upsertedRows: [StoredRow(key: "r2", section: "s", orderKey: "b", body: Array("{}".utf8))],
                deletedRowKeys: [], patch: Array("[]".utf8)))
        #expect(try store.load(id: "a")?.rows.map(\.version) == [0, 8])
    }
}
