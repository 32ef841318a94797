import ListModel
import ListModelTesting
import ListServerTesting
import ListStore
import Synchronization
import Testing

@testable import ListServerHTTP
@testable import ListService

@Suite("Row writes through the registry")
struct RegistryRowWriteTests {
    /// Random row edits through `writeRows`: each published change's patch turns the old
    /// document into the new, versions follow one another, and a registry loaded again from
    /// the store holds the same document and order keys.
    @Test func publishedPatchesAndStoredRowsMatchTheList() throws {
        let store = try SQLiteStore(path: ":memory:")
        let changes = Mutex<[ListChange]>([])
        let registry = try ListRegistry(store: store, publish: { change in changes.withLock { $0.append(change) } })
        var edits = RandomListEdits(seed: 11)
        try registry.write(id: "l", mayCreate: true) { _ in edits.document(sections: 3, rowsPerSection: 2...5) }
        for _ in 0..<60 {
            let list = try #require(registry.snapshot(id: "l")).list
            let kind = list.rowCount == 0 ? 2 : Int.random(in: 0..<3, using: &edits.random)
            let victim = list.rowCount == 0 ? nil : list.row(atPosition: Int.random(in: 0..<list.rowCount, using: &edits.random))
            let newRow = edits.row()
            let sectionKey = list.document.sections[Int.random(in: 0..<3, using: &edits.random)].key
            try registry.writeRows(id: "l") { list in
                switch kind {
                case 0: return try list.replacingRow(Row(key: victim!.key, cells: newRow.cells, href: newRow.href))
                case 1: return try list.removingRow(key: victim!.key)
                default: return try list.insertingRows([newRow], inSection: sectionKey, at: .end)
                }
            }
        }
        let published = changes.withLock { $0 }
        #expect(published.count == 61)
        for (index, change) in published.enumerated().dropFirst() {
            let old = try #require(change.old), new = try #require(change.new)
            #expect(new.version == old.version + 1 && new.version == index + 1)
            #expect(try change.patch.apply(to: old.document.json) == new.document.json, "version \(new.version)")
        }
        let current = try #require(registry.snapshot(id: "l"))
        let reloaded = try #require(try ListRegistry(store: store).snapshot(id: "l"))
        #expect(reloaded.version == current.version)
        #expect(reloaded.document == current.document)
        #expect(reloaded.list.orderKeys == current.list.orderKeys)
    }

    /// A refused row edit changes nothing: no version, no publication.
    @Test func aRefusedRowEditChangesNothing() throws {
        let store = try SQLiteStore(path: ":memory:")
        let published = Mutex(0)
        let registry = try ListRegistry(store: store, publish: { _ in published.withLock { $0 += 1 } })
        try registry.write(id: "l", mayCreate: true) { _ in ListDocument(title: "T", sections: [Section(key: "s", rows: [Row(key: "a")])]) }
        #expect(throws: ListEditError.self) { try registry.writeRows(id: "l") { try $0.removingRow(key: "nope") } }
        #expect(throws: RegistryError.self) { try registry.writeRows(id: "other") { try $0.removingRow(key: "a") } }
        #expect(registry.snapshot(id: "l")?.version == 1)
        #expect(published.withLock { $0 } == 1)
    }
}
