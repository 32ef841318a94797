// The lists the benchmarks build: rows keyed `r0`, `r1`, … in list order, spread evenly over
// sections `s0`, `s1`, … headed "Section N".

import ListModel
import ListModelTesting

/// `sections` sections of `rows / sections` rows; row number `serial` (counted across the list)
/// gets the cells `cells(serial)`. With `footers`, each section ends "End of section N".
func benchDocument(
    title: String, columns: [Column], sections: Int, rows: Int, footers: Bool = false,
    cells: (_ serial: Int) -> [String: CellValue]
) -> ListDocument {
    var document = ListDocument(title: title, columns: columns)
    var serial = 0
    for section in 0..<sections {
        var sectionRows: [Row] = []
        sectionRows.reserveCapacity(rows / sections)
        for _ in 0..<rows / sections {
            sectionRows.append(Row(key: "r\(serial)", cells: cells(serial)))
            serial += 1
        }
        document.sections.append(
            Section(
                key: "s\(section)", header: "Section \(section)",
                footer: footers ? "End of section \(section)" : nil, rows: sectionRows))
    }
    return document
}

/// A name, a number and two text cells a row (the writes, PUT, PATCH and memory benchmarks).
func writeBenchDocument(sections: Int, rows: Int) -> ListDocument {
    let columns = [Column(key: "name"), Column(key: "n", kind: .number), Column(key: "note"), Column(key: "tag")]
    return benchDocument(title: "Writes", columns: columns, sections: sections, rows: rows) { serial in
        ["name": .text("Row \(serial)"), "n": .number(Double(serial)), "note": .text("plain"), "tag": .text("t\(serial % 7)")]
    }
}

/// Rows like scripts/bench's: a text that needs escaping, a number, a link and a short text.
func memoryBenchMixedDocument(sections: Int, rows: Int) -> ListDocument {
    let columns = [
        Column(key: "name", title: "Name"), Column(key: "n", title: "Number", kind: .number),
        Column(key: "link", title: "Link", kind: .link), Column(key: "note", title: "Note"),
    ]
    return benchDocument(title: "Bench list", columns: columns, sections: sections, rows: rows, footers: true) { serial in
        [
            "name": .text("Item \(serial) <r\(serial)> & co"), "n": .number(Double(serial) * 1.5),
            "link": .link(text: "row \(serial)", href: "/items/\(serial)"), "note": .text("plain"),
        ]
    }
}

/// The columns of feed rows like `scripts/bench/server_memory.py --shape small`'s: key `f123`, a
/// short name, a number and a short tag, about 85 B of canonical JSON each.
func memoryBenchSmallColumns() -> [Column] {
    [Column(key: "name", title: "Name"), Column(key: "n", title: "Number", kind: .number), Column(key: "tag", title: "Tag")]
}

/// Feed row number `serial` (`memoryBenchSmallColumns`).
func memoryBenchSmallRow(_ serial: Int) -> Row {
    Row(
        key: "f\(serial)",
        cells: RowCells(uniqueKeysWithValues: [
            ("name", .text("Post \(serial)")), ("n", .number(Double(serial % 1_000))), ("tag", .text("new")),
        ]))
}

/// The diff benchmark's lists before and after mixed edits (10% deletes, 10% inserts, 5% moves,
/// 10% one-cell updates), seed 42. `sections` sections of `rows / sections` rows of
/// `RandomListEdits`; with one section, a feed: rows with long keys (`row-123-4f0c2a9e`) and
/// three columns (text, number, text).
func diffBenchDocuments(rows: Int, sections: Int) -> (old: ListDocument, new: ListDocument, movesMade: Int) {
    var random = RandomListEdits(seed: 42)
    var old: ListDocument
    if sections == 1 {
        random.longRowKeys = true
        let columns = [Column(key: "name", title: "Name"), Column(key: "pop", kind: .number), Column(key: "note")]
        old = ListDocument(title: "Feed", columns: columns)
        old.sections = [Section(key: "feed", rows: (0..<rows).map { _ in random.row(columns: columns) })]
    } else {
        old = random.document(sections: sections, rowsPerSection: rows / sections...rows / sections)
    }
    let edit = random.mixedEdits(old, deletes: 0.1, inserts: 0.1, moves: 0.05, updates: 0.1)
    return (old, edit.document, edit.movesMade)
}
