import Foundation
import HTMLRenderer
import ListModel

/// `sections` × `rows` rows of four text columns whose text needs escaping (`&`, `<`, quotes).
func renderBenchDocument(sections: Int = 10, rows: Int = 1_000) -> ListDocument {
    ListDocument(
        title: "Benchmark <list> & co",
        columns: [
            Column(key: "name", title: "Name"), Column(key: "city", title: "City"),
            Column(key: "note", title: "Note"), Column(key: "tag", title: "Tag"),
        ],
        sections: (0..<sections).map { s in
            Section(
                key: "section-\(s)", header: "Section \(s) \"A&B\"", footer: "\(rows) rows",
                rows: (0..<rows).map { r in
                    Row(
                        key: "row-\(s)-\(r)",
                        cells: [
                            "name": .text("Person \(r) <\(s)>"),
                            "city": .text("Zürich & \"Bern\""),
                            "note": .text("Fish & chips at O'Brien's, <b>not</b> bold"),
                            "tag": .text("tag-\(r % 17)"),
                        ])
                })
        })
}

/// The same shape with a number and a link column in place of two text columns.
func renderBenchMixedDocument(sections: Int = 10, rows: Int = 1_000) -> ListDocument {
    var doc = renderBenchDocument(sections: sections, rows: rows)
    doc.columns[1] = Column(key: "city", title: "Population", kind: .number)
    doc.columns[3] = Column(key: "tag", title: "Link", kind: .link)
    for s in doc.sections.indices {
        for r in doc.sections[s].rows.indices {
            doc.sections[s].rows[r].cells["city"] = .number(Double(r * 7919 + s))
            doc.sections[s].rows[r].cells["tag"] = .link(text: "Profile", href: "/people/\(s)/\(r)?tab=a&b=c")
        }
    }
    return doc
}

func runRenderBenchmarks() {
    let renderer = HTMLRenderer()
    // For profilers: RENDER_PROFILE_LOOPS=N renders only the table N times (RENDER_PROFILE=mixed
    // for the second document, =rows for the live view's rows one by one).
    let environment = ProcessInfo.processInfo.environment
    if let loops = environment["RENDER_PROFILE_LOOPS"].flatMap(Int.init) {
        let what = environment["RENDER_PROFILE"] ?? "table"
        let doc = what == "mixed" ? renderBenchMixedDocument() : renderBenchDocument()
        let rows = doc.sections.flatMap(\.rows)
        for _ in 0..<loops {
            if what == "rows" {
                for row in rows { blackHole(renderer.row(row, in: doc)) }
            } else {
                blackHole(renderer.table(doc))
            }
        }
        return
    }
    for (name, doc) in [("4 text columns", renderBenchDocument()), ("text, number, text, link", renderBenchMixedDocument())] {
        var size = 0
        let seconds = medianSeconds(iterations: 21) {
            let html = renderer.table(doc)
            size = html.count
            blackHole(html)
        }
        let cpu = medianThreadCPUSeconds(iterations: 21) { blackHole(renderer.table(doc)) }
        print(
            "  HTMLRenderer.table, 10 × 1,000 rows, \(name): median \(ms(seconds)), \(size) bytes, "
                + "\(mbps(bytes: size, seconds: seconds)); thread CPU median \(ms(cpu)), \(mbps(bytes: size, seconds: cpu))")
    }
    let doc = renderBenchDocument()
    let rows = doc.sections.flatMap(\.rows)
    let seconds = medianSeconds(iterations: 21) {
        var total = 0
        for row in rows { total &+= renderer.row(row, in: doc).count }
        blackHole(total)
    }
    print("  HTMLRenderer.row × 10,000 (the live view's path): median \(ms(seconds))")
}
