// `swift run -c release list-bench writes`: what one keyed row write costs in ListModel at
// 100k and 1M rows (10 sections, 4 cells a row), step by step. The diff path is what the
// registry did for every write before row edits described themselves (and still does for PUT
// and PATCH of the whole document): edit a copy of the document (finding the row by a scan),
// re-index it (`IndexedList.updated(to:)`), diff it (`JSONPatch(from:to:)`). The row-edit
// path is `IndexedList.replacingRow` / `removingRow` / `insertingRows`, patch included.
// The store write and the live hub are not in ListModel; `scripts/bench/deep.py` times the
// whole request.

import ListModel

func runWriteBenchmarks() {
    for rows in [100_000, 1_000_000] {
        let list = IndexedList(document: writeBenchDocument(sections: 10, rows: rows))
        let iterations = rows >= 1_000_000 ? 5 : 11
        let middle = list.row(atPosition: rows / 2)
        var replaced = middle
        replaced.cells["note"] = .text("replaced")
        let victim = list.row(atPosition: rows - 3).key
        let lastSection = list.document.sections[list.document.sections.count - 1].key
        let appended = Row(key: "appended", cells: ["name": .text("appended"), "n": .number(1)])

        print("  \(rows) rows:")
        let edits: [(name: String, document: (inout ListDocument) throws -> Void, row: () throws -> IndexedRowEdit)] = [
            ("replace", { try $0.replaceRow(replaced) }, { try list.replacingRow(replaced) }),
            ("delete", { try $0.removeRow(key: victim) }, { try list.removingRow(key: victim) }),
            (
                "append", { try $0.insertRows([appended], inSection: lastSection) },
                { try list.insertingRows([appended], inSection: lastSection) }
            ),
        ]
        for edit in edits {
            var edited = list.document
            try! edit.document(&edited)
            let new = edited
            let documentEdit = medianSeconds(iterations: iterations) {
                var copy = list.document
                try! edit.document(&copy)
                blackHole(copy)
            }
            let reindex = medianSeconds(iterations: iterations) { blackHole(list.updated(to: new)) }
            let diff = medianSeconds(iterations: iterations) { blackHole(JSONPatch(from: list.document, to: new)) }
            let rowEdit = medianSeconds(iterations: iterations) { blackHole(try! edit.row()) }
            print(
                "    \(edit.name): diff path \(ms(documentEdit + reindex + diff)) = document edit \(ms(documentEdit))"
                    + " + updated(to:) \(ms(reindex)) + JSONPatch(from:to:) \(ms(diff)); row edit \(ms(rowEdit))")
        }
    }
}
