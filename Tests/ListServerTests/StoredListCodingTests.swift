import ListModel
import ListModelTesting
import ListServerTesting
import ListStore
import Testing

@testable import ListServerHTTP
@testable import ListService

@Suite("Stored lists, row by row")
struct StoredListCodingTests {
    /// Random edit scripts written one version at a time read back as exactly the documents
    /// and order keys written, so writing only the changed rows loses nothing.
    @Test func randomEditsReadBackExactly() throws {
        for seed in 1...6 {
            var edits = RandomListEdits(seed: UInt64(seed))
            let store = try SQLiteStore(path: ":memory:")
            var document = edits.document(sections: 5, rowsPerSection: 0...8)
            var snapshot = ListSnapshot(id: "l", version: 1, list: IndexedList(document: document))
            try store.commit(StoredListCoding.write(from: nil, to: snapshot, patch: JSONPatch(operations: [])))
            for version in 2...40 {
                document = edits.edited(document, edits: Int.random(in: 1...6, using: &edits.random))
                let next = ListSnapshot(id: "l", version: version, list: snapshot.list.updated(to: document))
                let write = StoredListCoding.write(from: snapshot, to: next, patch: JSONPatch(from: snapshot.document, to: document))
                #expect(write.upsertedRows.count <= document.rowCount)
                try store.commit(write)
                snapshot = next
                let loaded = try StoredListCoding.snapshot(from: try #require(store.loadAll().first))
                #expect(loaded.document == document, "seed \(seed) version \(version)")
                #expect(loaded.list.orderKeys == snapshot.list.orderKeys, "seed \(seed) version \(version)")
            }
        }
    }

    @Test func aContentEditWritesOnlyThatRow() throws {
        var document = ListDocument(
            title: "T",
            sections: (0..<3).map { s in
                Section(key: "s\(s)", rows: (0..<100).map { Row(key: "r\(s)-\($0)", cells: ["text": .text("\($0)")]) })
            })
        let old = ListSnapshot(id: "l", version: 1, list: IndexedList(document: document))
        document.sections[1].rows[42].cells["text"] = .text("changed")
        let new = ListSnapshot(id: "l", version: 2, list: old.list.updated(to: document))
        let write = StoredListCoding.write(from: old, to: new, patch: JSONPatch(from: old.document, to: document))
        #expect(write.upsertedRows.map(\.key) == ["r1-42"])
        #expect(write.deletedRowKeys.isEmpty)
    }
}
