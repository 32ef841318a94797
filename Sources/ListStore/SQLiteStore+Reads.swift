import CSQLite
import ServerSupport
import Synchronization

// Reads: every list, one list, tombstones, versions, the change log.
extension SQLiteStore {
    public func forEachList(_ visit: (StoredList, Int, StoredRowReader) throws -> Void) throws {
        try reading { db in
            var lists: [StoredList] = []
            let listQuery = try db.statement(
                "SELECT lists.id, lists.version, lists.meta, tombstones.version FROM lists "
                    + "LEFT JOIN tombstones ON tombstones.id = lists.id ORDER BY lists.id")
            while try listQuery.step() {
                let deletedAt = listQuery.int(3)
                lists.append(
                    StoredList(
                        id: listQuery.text(0), version: listQuery.int(1), meta: listQuery.blob(2), rows: [],
                        deletedAt: deletedAt > 0 ? deletedAt : nil))
            }
            listQuery.reset()
            let countQuery = try db.statement("SELECT COUNT(*) FROM rows WHERE list_id = ?")
            for index in lists.indices {
                let list = lists[index]
                lists[index].meta = []
                try countQuery.bind(list.id)
                _ = try countQuery.step()
                let count = countQuery.int(0)
                countQuery.reset()
                try visit(list, count) { row in try Self.forEachRow(of: list.id, db, row) }
            }
        }
    }

    public func load(id: String) throws -> StoredList? {
        try reading { db in
            let query = try db.statement(
                """
                SELECT lists.version, lists.meta, tombstones.version FROM lists
                LEFT JOIN tombstones ON tombstones.id = lists.id WHERE lists.id = ?
                """)
            try query.bind(id)
            guard try query.step() else {
                query.reset()
                return nil
            }
            let deletedAt = query.int(2)
            var list = StoredList(
                id: id, version: query.int(0), meta: query.blob(1), rows: [],
                deletedAt: deletedAt > 0 ? deletedAt : nil)
            query.reset()
            list.rows = try Self.rows(of: id, db)
            return list
        }
    }

    /// A list's rows in order-key order.
    static func rows(of id: String, _ db: SQLiteConnection) throws -> [StoredRow] {
        var rows: [StoredRow] = []
        try forEachRow(of: id, db) { rows.append($0) }
        return rows
    }

    /// Hands a list's rows to `body` in order-key order, each as it is read.
    static func forEachRow(of id: String, _ db: SQLiteConnection, _ body: (StoredRow) throws -> Void) throws {
        let query = try db.statement(
            "SELECT row_key, section_key, order_key, body, version FROM rows WHERE list_id = ? ORDER BY order_key")
        try query.bind(id)
        defer { query.reset() }
        while try query.step() {
            try body(
                StoredRow(
                    key: query.text(0), section: query.text(1), orderKey: query.text(2), body: query.blob(3),
                    version: query.int(4)))
        }
    }

    /// A write waits for another process's lock on the file (`SQLITE_BUSY`, then `.busy`) until
    /// its deadline (without one, SQLite's usual 5 s).
    public func loadTombstones() throws -> [String: Int] {
        try versions().tombstones
    }

    public func versions() throws -> StoredVersions {
        try reading { db in
            var versions = StoredVersions(lists: [:], tombstones: [:])
            let lists = try db.statement("SELECT id, version FROM lists")
            while try lists.step() { versions.lists[lists.text(0)] = lists.int(1) }
            lists.reset()
            let tombstones = try db.statement(
                "SELECT id, version FROM tombstones WHERE id NOT IN (SELECT id FROM lists)")
            while try tombstones.step() { versions.tombstones[tombstones.text(0)] = tombstones.int(1) }
            tombstones.reset()
            return versions
        }
    }

    /// Throws `VersionConflict` unless `version` follows the committed one: the list's, else its
    /// tombstone's, else 0.
    public func changes(of id: String, after version: Int) throws -> [StoredChange]? {
        try reading { db in
            let bounds = try db.statement("SELECT MIN(version), MAX(version), COUNT(*) FROM changes WHERE list_id = ?")
            try bounds.bind(id)
            _ = try bounds.step()
            let oldest = bounds.int(0), newest = bounds.int(1), count = bounds.int(2)
            bounds.reset()
            guard count > 0, version >= oldest - 1, version <= newest else { return nil }
            let query = try db.statement(
                "SELECT version, patch, order_keys FROM changes WHERE list_id = ? AND version > ? ORDER BY version")
            try query.bind(id, version)
            var changes: [StoredChange] = []
            while try query.step() {
                changes.append(
                    StoredChange(
                        version: query.int(0), patch: query.blob(1),
                        orderKeys: try StoredOrderKey.decode(query.blob(2))))
            }
            query.reset()
            return changes
        }
    }

    /// Also throws `.full` while the last write found no room, unless the disk has room again.
}
