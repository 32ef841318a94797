// The lists the benchmarks build: rows keyed `r0`, `r1`, … in list order, spread evenly over
// sections `s0`, `s1`, … headed "Section N".

import ListModel

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
