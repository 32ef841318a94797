// `swift run -c release list-bench live-views`: what one-row writes cost the live views of a
// 1,000,000-row list in process (`ViewIndex`, as the live hub uses it), per view: the written
// row's place before the write, the index brought to the new version, and a 50-row window's end,
// rows and changes. Rows as scripts/bench/benchlib.py makes them (`live_views.py` runs the
// same through the server); each write sets one row's number cell, as there.

import Foundation
import ListModel

func runLiveViewBenchmarks() {
    let rowCount = 1_000_000
    let columns = [Column(key: "name"), Column(key: "n", kind: .number), Column(key: "link", kind: .link), Column(key: "note")]
    var section = Section(key: "s0")
    section.rows.reserveCapacity(rowCount)
    for index in 0..<rowCount {
        let cells: RowCells = [
            "name": .text("Item \(index) <r\(index)> & co"), "n": .number(Double(index) * 1.5),
            "link": .link(text: "row \(index)", href: "/items/\(index)"), "note": .text("plain"),
        ]
        section.rows.append(Row(key: "r\(index)", cells: cells))
    }
    var list = IndexedList(document: ListDocument(title: "Live", columns: columns, sections: [section]))
    let queries: [ListQuery] = ["n", "name", "link", "note"].flatMap { column -> [ListQuery] in
        [ListQuery(sort: .init(column: column)), ListQuery(sort: .init(column: column, descending: true))]
    }
    var indexes: [ViewIndex] = []
    let started = DispatchTime.now().uptimeNanoseconds
    indexes = queries.map { try! ViewIndex(list: list, query: $0) }
    let built = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    print("  \(queries.count) views of \(rowCount) rows built in \(ms(built))")
    var samples = [[Double]](repeating: [], count: queries.count)
    var state: UInt64 = 5
    func next() -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(truncatingIfNeeded: state >> 33)
    }
    for _ in 0..<301 {
        let key = "r\(next() % rowCount)"
        var row = list.row(atPosition: list.position(ofRow: key)!)
        row.cells["n"] = .number(Double(next() % 1_500_000))
        let edit = try! list.replacingRow(row)
        for index in indexes.indices {
            let start = DispatchTime.now().uptimeNanoseconds
            blackHole(indexes[index].location(ofRow: key))
            let end = indexes[index].windowEnd(limit: 50)
            let update = indexes[index].update(to: edit.list, touching: edit.writtenRowKeys)
            if case .through(let cursor) = end { blackHole(update.window(through: cursor)) }
            blackHole(indexes[index].window(indexes[index].windowEnd(limit: 50)))
            samples[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        list = edit.list
    }
    for (query, times) in zip(queries, samples) {
        let sorted = times.sorted()
        print(
            "    \(query.queryString): median \(String(format: "%.1f µs", sorted[sorted.count / 2] * 1e6)),"
                + " p90 \(String(format: "%.1f µs", sorted[sorted.count * 9 / 10] * 1e6)) a write")
    }
    let total = samples.indices.map { index in samples[index].sorted()[samples[index].count / 2] }.reduce(0, +)
    print("    all \(queries.count) views: \(String(format: "%.1f µs", total * 1e6)) a write (sum of medians)")
}
