import ListModelTesting
import Testing

@testable import ListModel

/// One random keyed row edit of `list`, made both ways: on the document (the reference) and
/// on the indexed list (the incremental path). Nil results mean the edit threw.
private struct EditCase {
    var description: String
    var reference: Result<ListDocument, ListEditError>
    var incremental: Result<IndexedRowEdit, ListEditError>
}

private func randomEdit(_ list: IndexedList, _ edits: inout RandomListEdits) -> EditCase {
    let document = list.document
    let allKeys = list.rowKeys
    func anyRowKey() -> String {
        // Now and then a key that is not in the list.
        if allKeys.isEmpty || Int.random(in: 0..<12, using: &edits.random) == 0 { return "missing" }
        return allKeys[Int.random(in: 0..<allKeys.count, using: &edits.random)]
    }
    var reference = document
    switch Int.random(in: 0..<3, using: &edits.random) {
    case 0:
        var row = edits.row()
        let key = anyRowKey()
        row = Row(key: key, cells: row.cells, href: row.href, style: row.style)
        if key != "missing", Bool.random(using: &edits.random) {
            // A small edit of the existing row, so fine-grained cell operations are written.
            row = list.row(atPosition: list.position(ofRow: key)!)
            row.cells["name"] = .text(edits.text())
        }
        let result = Result { () throws(ListEditError) in
            try reference.replaceRow(row)
            return reference
        }
        return EditCase(
            description: "replace \(key)", reference: result,
            incremental: Result { () throws(ListEditError) in try list.replacingRow(row) })
    case 1:
        let key = anyRowKey()
        let result = Result { () throws(ListEditError) in
            try reference.removeRow(key: key)
            return reference
        }
        return EditCase(
            description: "remove \(key)", reference: result,
            incremental: Result { () throws(ListEditError) in try list.removingRow(key: key) })
    default:
        let sectionKey =
            document.sections.isEmpty || Int.random(in: 0..<12, using: &edits.random) == 0
            ? "nowhere" : document.sections[Int.random(in: 0..<document.sections.count, using: &edits.random)].key
        var rows = (0..<Int.random(in: 1...3, using: &edits.random)).map { _ in edits.row() }
        if Int.random(in: 0..<10, using: &edits.random) == 0 { rows.append(Row(key: anyRowKey())) }  // a duplicate
        let position: RowInsertPosition
        switch Int.random(in: 0..<3, using: &edits.random) {
        case 0: position = .end
        case 1: position = .before(anyRowKey())
        default: position = .after(anyRowKey())
        }
        let result = Result { () throws(ListEditError) in
            try reference.insertRows(rows, inSection: sectionKey, at: position)
            return reference
        }
        return EditCase(
            description: "insert \(rows.map(\.key)) into \(sectionKey) at \(position)", reference: result,
            incremental: Result { () throws(ListEditError) in try list.insertingRows(rows, inSection: sectionKey, at: position) })
    }
}

/// The invariants paging and cursors rely on, against a list indexed from scratch.
private func checkIndex(_ list: IndexedList, keptFrom old: IndexedList, _ context: String) throws {
    #expect(list.orderKeys.count == list.document.rowCount, "\(context)")
    #expect(isStrictlyIncreasing(list.orderKeys), "\(context)")
    #expect(list.orderKeys.allSatisfy { $0.isWellFormed }, "\(context)")
    #expect(keyMap(list) == Dictionary(uniqueKeysWithValues: zip(list.rowKeys, list.orderKeys)), "\(context)")
    for (position, key) in list.rowKeys.enumerated() {
        #expect(list.position(ofRow: key) == position, "\(context): \(key)")
        if let before = old.orderKey(ofRow: key) { #expect(list.orderKey(ofRow: key) == before, "\(context): \(key) re-keyed") }
    }
    let fresh = IndexedList(document: list.document)
    #expect(fresh.sectionStarts == list.sectionStarts && fresh.sectionIndexes == list.sectionIndexes, "\(context)")
    #expect(try IndexedList(document: list.document, orderKeys: list.orderKeys).orderKeys == list.orderKeys, "\(context)")
}

@Suite("Keyed row edits without a diff")
struct IndexedRowEditTests {
    /// Random scripts of replace, remove and insert: the incremental edit gives the same
    /// document (and errors) as the document's own edit, its patch turns the old JSON into the
    /// new, and its order keys are those `updated(to:)` assigns, no row re-keyed.
    @Test(arguments: 1...40)
    func randomEditsMatchTheReference(seed: Int) throws {
        var edits = RandomListEdits(seed: UInt64(seed))
        var list = IndexedList(document: edits.document(sections: Int.random(in: 1...5, using: &edits.random), rowsPerSection: 0...8))
        var accepted = 0
        for step in 0..<60 {
            let edit = randomEdit(list, &edits)
            let context = "seed \(seed) step \(step): \(edit.description)"
            switch (edit.reference, edit.incremental) {
            case (.failure(let expected), .failure(let got)):
                #expect(got == expected, "\(context)")
            case (.success(let expected), .success(let made)):
                #expect(made.list.document == expected, "\(context)")
                #expect(try made.patch.apply(to: list.document.json) == expected.json, "\(context): \(made.patch.json.serializedText)")
                #expect(made.list.orderKeys == list.updated(to: expected).orderKeys, "\(context)")
                try checkIndex(made.list, keptFrom: list, context)
                let gone = Set(list.rowKeys).subtracting(made.list.rowKeys)
                #expect(Set(made.removedRowKeys) == gone, "\(context)")
                let oldRows = Dictionary(uniqueKeysWithValues: list.rowKeys.map { ($0, list.row(atPosition: list.position(ofRow: $0)!)) })
                let changed = made.list.rowKeys.filter { key in oldRows[key] != made.list.row(atPosition: made.list.position(ofRow: key)!) }
                #expect(made.writtenRowKeys == changed, "\(context)")
                list = made.list
                accepted += 1
            default:
                Issue.record("\(context): reference \(edit.reference), incremental \(edit.incremental)")
            }
        }
        #expect(accepted > 20, "most random edits are valid")
    }

    /// Replace and remove give exactly the patch the keyed diff computes.
    @Test func replaceAndRemoveWriteTheDiffsPatch() throws {
        var edits = RandomListEdits(seed: 7)
        let list = IndexedList(document: edits.document(sections: 4, rowsPerSection: 3...6))
        for key in list.rowKeys {
            var row = list.row(atPosition: list.position(ofRow: key)!)
            row.cells["pop"] = .number(12)
            row.style = .muted
            let replaced = try list.replacingRow(row)
            #expect(replaced.patch == JSONPatch(from: list.document, to: replaced.list.document), "\(key)")
            let removed = try list.removingRow(key: key)
            #expect(removed.patch == JSONPatch(from: list.document, to: removed.list.document), "\(key)")
        }
    }

    @Test func anUnchangedReplaceIsAnEmptyPatchWritingNothing() throws {
        let list = IndexedList(document: makeDocument([("a", ["1", "2"])]))
        let edit = try list.replacingRow(list.row(atPosition: 1))
        #expect(edit.patch.operations.isEmpty)
        #expect(edit.writtenRowKeys.isEmpty && edit.removedRowKeys.isEmpty)
    }

    @Test func insertsGoBetweenTheirNeighboursKeys() throws {
        let list = IndexedList(document: makeDocument([("a", ["1", "2"]), ("e", []), ("b", ["3"])]))
        let edit = try list.insertingRows([Row(key: "x"), Row(key: "y")], inSection: "e")
        #expect(edit.list.rowKeys == ["1", "2", "x", "y", "3"])
        #expect(edit.list.orderKeys[1] < edit.list.orderKeys[2] && edit.list.orderKeys[3] < edit.list.orderKeys[4])
        #expect(
            edit.patch.operations.map(\.path) == [
                JSONPointer(tokens: ["sections", "1", "rows", "0"]), JSONPointer(tokens: ["sections", "1", "rows", "1"]),
            ])
        #expect(edit.writtenRowKeys == ["x", "y"])
    }

    /// Keys grown past the limit by inserts at one spot: the list is re-keyed like
    /// `updated(to:)` does, and every row is to be written again.
    @Test func keysGrownTooLongReKeyEveryRow() throws {
        var list = IndexedList(document: makeDocument([("a", ["1", "2"])]))
        var serial = 0
        var rekeyed = false
        while !rekeyed {
            serial += 1
            let edit = try list.insertingRows([Row(key: "n\(serial)")], inSection: "a", at: .after("1"), maxKeyLength: 4)
            #expect(edit.list.orderKeys.allSatisfy { $0.rawValue.utf8.count <= 4 })
            #expect(isStrictlyIncreasing(edit.list.orderKeys))
            if edit.writtenRowKeys.count > 1 {
                rekeyed = true
                #expect(edit.writtenRowKeys == edit.list.rowKeys)
                #expect(Array(edit.list.orderKeys) == OrderKey.spaced(count: edit.list.rowCount))
            }
            list = edit.list
        }
        #expect(list.rowKeys.first == "1" && list.rowKeys.last == "2")
    }
}
