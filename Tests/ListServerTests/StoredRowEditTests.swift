import ListModel
import ListModelTesting
import ListServerTesting
import ListStore
import Testing

@testable import ListServerHTTP
@testable import ListService

@Suite("Stored lists after keyed row edits")
struct StoredRowEditTests {
    /// Random replace, remove and insert edits stored through their own row lists read back as
    /// exactly the documents and order keys written.
    @Test func randomRowEditsReadBackExactly() throws {
        for seed in 1...6 {
            var edits = RandomListEdits(seed: UInt64(seed))
            let store = try SQLiteStore(path: ":memory:")
            var snapshot = ListSnapshot(
                id: "l", version: 1, list: IndexedList(document: edits.document(sections: 4, rowsPerSection: 0...6)))
            try store.commit(StoredListCoding.write(from: nil, to: snapshot, patch: JSONPatch(operations: [])))
            for version in 2...50 {
                let list = snapshot.list
                let document = list.document
                let edit: IndexedRowEdit
                let choice = list.rowCount == 0 ? 2 : Int.random(in: 0..<3, using: &edits.random)
                if choice == 2 {
                    let section = document.sections[Int.random(in: 0..<document.sections.count, using: &edits.random)]
                    let rows = (0..<Int.random(in: 1...3, using: &edits.random)).map { _ in edits.row() }
                    let position: RowInsertPosition =
                        section.rows.isEmpty
                        ? .end
                        : .before(section.rows[Int.random(in: 0..<section.rows.count, using: &edits.random)].key)
                    edit = try list.insertingRows(rows, inSection: section.key, at: position)
                } else {
                    let old = list.row(atPosition: Int.random(in: 0..<list.rowCount, using: &edits.random))
                    if choice == 0 {
                        let fresh = edits.row()
                        edit = try list.replacingRow(Row(key: old.key, cells: fresh.cells, href: fresh.href, style: fresh.style))
                    } else {
                        edit = try list.removingRow(key: old.key)
                    }
                }
                let next = ListSnapshot(id: "l", version: version, list: edit.list)
                let write = StoredListCoding.write(to: next, rowEdit: edit)
                #expect(write.upsertedRows.count + write.deletedRowKeys.count <= 3)
                try store.commit(write)
                snapshot = next
                let loaded = try StoredListCoding.snapshot(from: try #require(store.loadAll().first))
                #expect(loaded.document == snapshot.document, "seed \(seed) version \(version)")
                #expect(loaded.list.orderKeys == snapshot.list.orderKeys, "seed \(seed) version \(version)")
                let logged = try #require(store.changes(of: "l", after: version - 1)?.first)
                #expect(logged.patch == edit.patch.serialized())
            }
        }
    }
}
