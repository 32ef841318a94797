// `swift run -c release list-bench patches`: what each kind of small write costs in ListModel at
// 1k, 100k and 1M rows (10 sections, 4 cells a row), and the ratio 1M / 1k. Side by side, the
// whole-document path PATCH took before (`patch.apply(to: document.json)`, `ListDocument(json:)`,
// `IndexedList.updated(to:)`, `JSONPatch(from:to:)`). PUT is parse + validate + re-index + diff of
// the whole body with one row changed, next to parsing that body alone.
//
// Small writes take tens of microseconds, so they are timed in batches (`batchedThreadCPUSeconds`:
// the median of 31 batches of >= 5 ms each, per run); `patches-small` prints only them, for
// `scripts/bench/small_writes.sh`, which runs it in several processes and reports min / median.

import Foundation
import ListModel

func runPatchBenchmarks() { runPatchBenchmarks(sizes: [1_000, 100_000, 1_000_000]) }

/// `list-bench patches-small`: the small writes only (no whole path, no PUT).
func runSmallWriteBenchmarks() { runPatchBenchmarks(sizes: [1_000, 100_000, 1_000_000], wholePath: false) }

/// `list-bench patches-profile`: only the small writes at 1M rows, timed for about 30 times as
/// long (for `perf record`); with `LIST_BENCH_WRITE=name` (e.g. `move PATCH`) only that write,
/// with `LIST_BENCH_ROWS=n` at n rows.
func runPatchProfile() {
    let rows = ProcessInfo.processInfo.environment["LIST_BENCH_ROWS"].flatMap { Int($0) } ?? 1_000_000
    runPatchBenchmarks(sizes: [rows], wholePath: false, repeats: 30)
}

func runPatchBenchmarks(sizes: [Int], wholePath: Bool = true, repeats: Int = 1) {
    var medians: [String: [Double]] = [:]
    var order: [String] = []
    func record(_ name: String, _ seconds: Double) {
        if medians[name] == nil { order.append(name) }
        medians[name, default: []].append(seconds)
    }
    let only = ProcessInfo.processInfo.environment["LIST_BENCH_WRITE"]
    func recordSmall(_ name: String, _ body: () -> Void) {
        if let only, only != name { return }
        record(name, batchedThreadCPUSeconds(samples: 31 * repeats, body).median)
    }
    for rows in sizes {
        let document = writeBenchDocument(sections: 10, rows: rows)
        let list = IndexedList(document: document)
        let perSection = rows / 10
        let wholeIterations = rows >= 1_000_000 ? 3 : rows >= 100_000 ? 5 : 51
        func pointer(_ tokens: String...) -> JSONPointer { JSONPointer(tokens: tokens) }
        let middle = String(perSection / 2)
        var replaced = list.document.sections[4].rows[perSection / 2]
        replaced.cells["note"] = .text("replaced")
        let victim = list.document.sections[9].rows[perSection - 3]
        let patches: [(String, JSONPatch)] = [
            (
                "one-cell PATCH",
                JSONPatch(operations: [.replace(path: pointer("sections", "4", "rows", middle, "cells", "note"), value: "x")])
            ),
            (
                "two-row PATCH",
                JSONPatch(operations: [
                    .replace(path: pointer("sections", "2", "rows", middle, "cells", "note"), value: "x"),
                    .replace(path: pointer("sections", "7", "rows", middle, "cells", "n"), value: 7),
                ])
            ),
            (
                "move PATCH",
                JSONPatch(operations: [
                    .move(
                        from: pointer("sections", "3", "rows", middle),
                        path: pointer("sections", "6", "rows", "1"))
                ])
            ),
        ]
        recordSmall("one-row replace") { blackHole(try! list.replacingRow(replaced)) }
        recordSmall("delete + re-insert") {
            let removed = try! list.removingRow(key: victim.key).list
            blackHole(try! removed.insertingRows([victim], inSection: "s9", at: .end))
        }
        // The same write in a sequence of versions, each made from the one before, after rows / 512
        // others at random rows: what the row key → order key map's overlay costs once it has grown.
        var chained = list
        var state: UInt64 = 5
        func chainedWrite() {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407  // a fixed sequence
            let position = Int((state >> 33) % UInt64(chained.rowCount))
            let row = chained.row(atPosition: position)
            let section = chained.sectionKey(atPosition: position)
            let removed = try! chained.removingRow(key: row.key).list
            chained = try! removed.insertingRows([row], inSection: section, at: .end).list
        }
        if only == nil || only == "delete + re-insert, chained" { for _ in 0..<rows / 512 { chainedWrite() } }
        recordSmall("delete + re-insert, chained") { chainedWrite() }
        for (name, patch) in patches {
            recordSmall(name) { blackHole(try! list.applying(patch)) }
            guard wholePath else { continue }
            record(
                name + ", whole path (before)",
                medianThreadCPUSeconds(iterations: wholeIterations) {
                    let new = try! ListDocument(json: try! patch.apply(to: list.document.json))
                    blackHole((list.updated(to: new), JSONPatch(from: list.document, to: new)))
                })
        }
        guard wholePath else { continue }
        var changed = document
        changed.sections[4].rows[perSection / 2] = replaced
        let body = changed.json.serialized()
        record(
            "PUT one row changed",
            medianThreadCPUSeconds(iterations: wholeIterations) {
                let new = try! ListDocument(json: try! JSONValue(parsing: body))
                blackHole((list.updated(to: new), JSONPatch(from: list.document, to: new)))
            })
        record("PUT: parse alone", medianThreadCPUSeconds(iterations: wholeIterations) { blackHole(try! JSONValue(parsing: body)) })
    }
    print("  thread CPU medians; 10 sections, 4 cells a row")
    print(
        "  " + "write".padding(toLength: 38, withPad: " ", startingAt: 0)
            + sizes.map { "\($0) rows".leftPad(14) }.joined() + "  1M / 1k")
    for name in order {
        let values = medians[name]!
        print(
            "  " + name.padding(toLength: 38, withPad: " ", startingAt: 0) + values.map { msPrecise($0).leftPad(14) }.joined()
                + (values.count > 1 ? String(format: "  %.2fx", values[values.count - 1] / values[0]) : ""))
    }
}

extension String {
    fileprivate func leftPad(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
