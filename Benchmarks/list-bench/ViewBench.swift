import Foundation
import ListModel

/// Views of a 1,000,000-row list, in two shapes: 1,000 sections × 1,000 rows, and one section of
/// 1,000,000 (a feed: the shape where a sort has the most to do). Each: building a sorted,
/// searched or filtered view (each row's sort value computed once), then its first page and a
/// deep page; and the view's first 1,000 rows read from the list without the view, as a server
/// answers a first page (`viewHead`, `ServerDefaults.viewHeadRows`). `t` grows with the row (a
/// list built by appends): newest first, every row read is among the best so far.
func runViewBenchmarks() {
    for sections in [1_000, 1] {
        let list = IndexedList(document: viewBenchDocument(sections: sections, rows: 1_000_000))
        print("  \(sections == 1 ? "one section" : "\(sections) sections") of \(1_000_000 / sections) rows")
        let queries: [(String, ListQuery)] = [
            ("sort=name", ListQuery(sort: .init(column: "name"))),
            ("sort_desc=n", ListQuery(sort: .init(column: "n", descending: true))),
            ("sort_desc=t", ListQuery(sort: .init(column: "t", descending: true))),
            ("q=straße", ListQuery(search: "straße")),
            (
                "filter.n=lt:100&sort=name",
                ListQuery(sort: .init(column: "name"), filters: [.init(column: "n", op: .lt, value: "100")])
            ),
        ]
        for (name, query) in queries {
            var view = try! list.view(query)
            let build = viewTimed(iterations: 3) { view = try! list.view(query) }
            let first = viewTimed(iterations: 1_001) { blackHole(try! view.page(after: nil, limit: 50)) }
            // What a server reads for a view not built yet (`ViewRequest.page`): no view.
            let atOnce = viewTimed(iterations: 5) { blackHole(try! list.viewHead(query, rows: 1_000)) }
            let deepCursor = view.rowCount > 1_000 ? view.cursor(atPosition: view.rowCount - 1_000) : nil
            let text = deepCursor?.encoded
            let deep = viewTimed(iterations: 1_001) {
                blackHole(try! view.page(after: text.map { try! ViewCursor(decoding: $0) }, limit: 50))
            }
            print(
                "    \(name): \(view.rowCount) rows; build", build, "| first page of 50", first,
                "| page after a decoded cursor near the end", deep, "| first 1,000 rows read without the view", atOnce)
        }
    }
}

/// `rows` rows in `sections` equal sections; names and numbers scrambled so that sorting moves
/// rows.
func viewBenchDocument(sections: Int, rows: Int) -> ListDocument {
    var doc = ListDocument(title: "Big", columns: [Column(key: "name"), Column(key: "n", kind: .number), Column(key: "t", kind: .number)])
    let words = ["Oslo", "Zürich", "straße", "Item", "café", "Lima"]
    let perSection = rows / sections
    for s in 0..<sections {
        var section = Section(key: "s\(s)")
        section.rows.reserveCapacity(perSection)
        for r in 0..<perSection {
            let index = s * perSection + r
            let scrambled = (index &* 7_919) % 1_000_003
            section.rows.append(
                Row(
                    key: "r\(index)",
                    cells: [
                        "name": .text("\(words[scrambled % words.count]) \(scrambled)"),
                        "n": .number(Double(scrambled % 10_000)),
                        "t": .number(Double(index)),
                    ]))
        }
        doc.sections.append(section)
    }
    return doc
}

/// The median wall time, in µs below a millisecond, else ms.
private func viewTimed(iterations: Int, _ body: () -> Void) -> String {
    let seconds = medianSeconds(iterations: iterations, body)
    return seconds < 1e-3 ? String(format: "%.1f µs", seconds * 1e6) : String(format: "%.1f ms", seconds * 1e3)
}
