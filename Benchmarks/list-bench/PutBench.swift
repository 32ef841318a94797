// `swift run -c release list-bench put`: where a PUT of a 1M-row document (one row changed) spends
// its time, part by part, next to parsing the body alone (issue 12's target: the whole within
// 3x the parse).
//
// The old list is what a server holds: a document parsed from JSON text (`ListDocument(json:)`),
// so its rows' cells are packed as the new body's are. The diff against the same document built
// in Swift is printed after the parts, for comparison only.

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
        let iterations = rows >= 1_000_000 ? 5 : 11
        let parts: [(String, () -> Void)] = [
            ("parse (JSONValue(parsing:))", { blackHole(try! JSONValue(parsing: body)) }),
            ("validate (ListDocument(json:))", { blackHole(try! ListDocument(json: parsed)) }),
            ("re-index (updated(to:))", { blackHole(list.updated(to: new)) }),
            ("diff (JSONPatch(from:to:))", { blackHole(JSONPatch(from: list.document, to: new)) }),
            ("whole PUT", {
                let document = try! ListDocument(json: try! JSONValue(parsing: body))
                blackHole((list.updated(to: document), JSONPatch(from: list.document, to: document)))
            }),
            ("(diff from the list built in Swift)", { blackHole(JSONPatch(from: built, to: new)) }),
        ]
        print("  \(rows) rows, 10 sections, one row changed (thread CPU medians of \(iterations))")
        var parse = 0.0
        for (name, body) in parts {
            let seconds = medianThreadCPUSeconds(iterations: iterations, body)
            if parse == 0 { parse = seconds }
            print("  " + name.padding(toLength: 36, withPad: " ", startingAt: 0) + ms(seconds)
                  + String(format: "  %.2fx parse", seconds / parse))
        }
    }
}

/// `list-bench put-profile`: the validation and the diff of the 1M-row PUT, 8 times each, for
/// `perf record -g` (nothing printed but the totals).
func runPutProfile() {
    let rows = 1_000_000
    let document = try! ListDocument(json: try! JSONValue(parsing: writeBenchDocument(sections: 10, rows: rows).json.serialized()))
    var changed = document
    changed.sections[4].rows[rows / 20].cells["note"] = .text("replaced")
    let parsed = try! JSONValue(parsing: changed.json.serialized())
    let new = try! ListDocument(json: parsed)
    print("  validate x8: " + ms(medianThreadCPUSeconds(iterations: 1) {
        for _ in 0..<8 { blackHole(try! ListDocument(json: parsed)) }
    }))
    print("  diff x8: " + ms(medianThreadCPUSeconds(iterations: 1) {
        for _ in 0..<8 { blackHole(JSONPatch(from: document, to: new)) }
    }))
}
