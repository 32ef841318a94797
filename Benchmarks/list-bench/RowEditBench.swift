// `swift run -c release list-bench row-edits`: a merge patch of one row and a move of one row by
// key (the `PATCH …/rows/{row}` and `POST …/rows/{row}/move` paths in ListModel, row versions
// stamped as the registry does) on 1,000 and on 1,000,000 rows (10 sections, 4 cells a row),
// and the ratio: both should cost what the touched rows cost, not what the list holds (target
// at most 4x). The store write and the live hub are not in ListModel.

import ListModel

func runRowEditBenchmarks() {
    var perSize: [Int: (merge: Double, move: Double)] = [:]
    let sizes = [1_000, 1_000_000]
    for rows in sizes {
        let list = IndexedList(document: writeBenchDocument(sections: 10, rows: rows))
        let iterations = rows >= 1_000_000 ? 21 : 101
        let target = list.row(atPosition: rows / 2).key
        let anchor = list.row(atPosition: rows / 4).key
        let patch = try! JSONValue(parsing: Array(#"{"cells": {"n": 5, "note": null}, "style": "muted"}"#.utf8))
        let merge = medianSeconds(iterations: iterations) {
            let position = list.position(ofRow: target)!
            let columns = list.document.columns
            let row = try! Row(json: list.row(atPosition: position).json(columns: columns).mergePatched(with: patch), columns: columns)
            let edit = try! list.replacingRow(row)
            blackHole(edit.list.stampingVersions(edit.writtenRowKeys, version: 2))
        }
        let move = medianSeconds(iterations: iterations) {
            let edit = try! list.movingRow(key: target, to: .before(anchor))
            blackHole(edit.list.stampingVersions(edit.writtenRowKeys, version: 2))
        }
        perSize[rows] = (merge, move)
        print("  \(rows) rows: merge patch \(msPrecise(merge)), move by key \(msPrecise(move))")
    }
    let (small, large) = (perSize[sizes[0]]!, perSize[sizes[1]]!)
    print(
        "  1M / 1k: merge \(String(format: "%.1f", large.merge / small.merge))x,"
            + " move \(String(format: "%.1f", large.move / small.move))x (target <= 4x)")
}
