// `swift run -c release list-bench put`: where a PUT of a 1M-row document (one row changed) spends
// its time, part by part, next to parsing the body alone (issue 12's target: the whole within
// 3x the parse).
//
// The old list is what a server holds: a document parsed from JSON text (`ListDocument(json:)`),
// so its rows' cells are packed as the new body's are. After the parts, for comparison: the diff
// against the same document built in Swift (cells packed in key order), and the PUT of a body
// with a row added and one removed too (the keys differ: the keyed diff instead of `SameKeysDiff`).

import ListModel

func runPutBenchmarks() {
    for rows in [100_000, 1_000_000] {
        let built = writeBenchDocument(sections: 10, rows: rows)
        let document = try! ListDocument(json: try! JSONValue(parsing: built.json.serialized()))
        let list = IndexedList(document: document)
        var changed = document
        changed.sections[4].rows[rows / 20].cells["note"] = .text("replaced")
        let body = changed.json.serialized()
        let parsed = try! JSONValue(parsing: body)
        let new = try! ListDocument(json: parsed)
        // The same PUT with a row inserted and another removed too (the row limit is 1M): the
        // keys differ, so the keyed diff runs.
        var inserted = changed
        inserted.sections[8].rows.remove(at: rows / 30)
        inserted.sections[6].rows.insert(Row(key: "inserted", cells: ["name": .text("new")]), at: rows / 40)
        let insertedBody = inserted.json.serialized()
        let insertedNew = try! ListDocument(json: try! JSONValue(parsing: insertedBody))
        let iterations = rows >= 1_000_000 ? 5 : 11
        let parts: [(String, () -> Void)] = [
            ("parse (JSONValue(parsing:))", { blackHole(try! JSONValue(parsing: body)) }),
            ("validate (ListDocument(json:))", { blackHole(try! ListDocument(json: parsed)) }),
            ("re-index (updated(to:))", { blackHole(list.updated(to: new)) }),
            ("diff (JSONPatch(from:to:))", { blackHole(JSONPatch(from: list.document, to: new)) }),
            (
                "whole PUT",
                {
                    let document = try! ListDocument(json: try! JSONValue(parsing: body))
                    blackHole((list.updated(to: document), JSONPatch(from: list.document, to: document)))
                }
            ),
            ("(diff from the list built in Swift)", { blackHole(JSONPatch(from: built, to: new)) }),
            ("(a row added, one removed: diff)", { blackHole(JSONPatch(from: list.document, to: insertedNew)) }),
            (
                "(... : whole PUT)",
                {
                    let document = try! ListDocument(json: try! JSONValue(parsing: insertedBody))
                    blackHole((list.updated(to: document), JSONPatch(from: list.document, to: document)))
                }
            ),
        ]
        print("  \(rows) rows, 10 sections, one row changed (thread CPU medians of \(iterations))")
        var parse = 0.0
        for (name, body) in parts {
            let seconds = medianThreadCPUSeconds(iterations: iterations, body)
            if parse == 0 { parse = seconds }
            print(
                "  " + name.padding(toLength: 36, withPad: " ", startingAt: 0) + ms(seconds)
                    + String(format: "  %.2fx parse", seconds / parse))
        }
    }
}

/// `list-bench put-profile`: the validation and the diff of the 1M-row PUT, then the diff and
/// the re-index of one with a row added and one removed, 8 times each, for `perf record -g`
/// (nothing printed but the totals).
func runPutProfile() {
    let rows = 1_000_000
    let document = try! ListDocument(json: try! JSONValue(parsing: writeBenchDocument(sections: 10, rows: rows).json.serialized()))
    var changed = document
    changed.sections[4].rows[rows / 20].cells["note"] = .text("replaced")
    let parsed = try! JSONValue(parsing: changed.json.serialized())
    let new = try! ListDocument(json: parsed)
    let list = IndexedList(document: document)
    print(
        "  validate x8: "
            + ms(
                medianThreadCPUSeconds(iterations: 1) {
                    for _ in 0..<8 { blackHole(try! ListDocument(json: parsed)) }
                }))
    print(
        "  diff x8: "
            + ms(
                medianThreadCPUSeconds(iterations: 1) {
                    for _ in 0..<8 { blackHole(JSONPatch(from: document, to: new)) }
                }))
    var inserted = changed
    inserted.sections[8].rows.remove(at: rows / 30)
    inserted.sections[6].rows.insert(Row(key: "inserted", cells: ["name": .text("new")]), at: rows / 40)
    let insertedNew = try! ListDocument(json: try! JSONValue(parsing: inserted.json.serialized()))
    print(
        "  diff, a row added and one removed (keyed) x8: "
            + ms(
                medianThreadCPUSeconds(iterations: 1) {
                    for _ in 0..<8 { blackHole(JSONPatch(from: document, to: insertedNew)) }
                }))
    print(
        "  re-index, a row added and one removed x8: "
            + ms(
                medianThreadCPUSeconds(iterations: 1) {
                    for _ in 0..<8 { blackHole(list.updated(to: insertedNew)) }
                }))
}
