import ListModelTesting
import Testing

@testable import ListModel

func randomDocument(sections: Int, rowsPerSection: Int, using rng: inout SplitMix64) -> ListDocument {
    let columns = [
        Column(key: "name", title: "Name"), Column(key: "pop", title: "Pop", kind: .number),
        Column(key: "wiki", kind: .link), Column(key: "flag", title: "🏳️", kind: .image),
    ]
    var nextRow = 0
    var doc = ListDocument(title: "Random", columns: columns)
    for s in 0..<Int.random(in: 0...sections, using: &rng) {
        var section = Section(
            key: "s\(s)", header: Bool.random(using: &rng) ? "Header \(s)" : nil,
            footer: Bool.random(using: &rng) ? nil : "Footer \(s)",
            collapsible: Bool.random(using: &rng))
        section.collapsed = section.collapsible && Bool.random(using: &rng)
        for _ in 0..<Int.random(in: 0...rowsPerSection, using: &rng) {
            section.rows.append(randomRow(key: "r\(nextRow)", using: &rng))
            nextRow += 1
        }
        doc.sections.append(section)
    }
    if Bool.random(using: &rng) { doc.emptyText = "Nothing here" }
    if Int.random(in: 0..<4, using: &rng) == 0 { doc.state = Bool.random(using: &rng) ? .loading : .error(message: "x") }
    if Bool.random(using: &rng) { doc.rowHeight = Double(Int.random(in: 1...100, using: &rng)) }
    return doc
}

func randomRow(key: String, using rng: inout SplitMix64) -> Row {
    var row = Row(key: key)
    if Bool.random(using: &rng) { row.cells["name"] = .text("Name \(key) \"q\" <b>") }
    if Bool.random(using: &rng) { row.cells["pop"] = .number(Double(Int.random(in: -1000...1000, using: &rng)) / 8) }
    if Bool.random(using: &rng) { row.cells["wiki"] = .link(text: "W", href: "https://example.com/\(key)") }
    if Bool.random(using: &rng) {
        row.cells["flag"] = .image(
            src: "/img/\(key).png", alt: Bool.random(using: &rng) ? "" : "flag",
            width: Bool.random(using: &rng) ? 16 : nil, height: nil)
    }
    if Bool.random(using: &rng) { row.href = "/rows/\(key)" }
    row.style = RowStyle.allCases.randomElement(using: &rng)!
    return row
}

@Suite struct DocumentRoundTripTests {
    @Test func randomDocumentsRoundTrip() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let doc = randomDocument(sections: 5, rowsPerSection: 6, using: &rng)
            let back = try ListDocument(json: doc.json)
            #expect(back == doc)
            #expect(back.json == doc.json)
        }
    }

    @Test func nonCanonicalInputGivesTheCanonicalForm() throws {
        let input: JSONValue = [
            "sections": [
                [
                    "rows": [
                        ["cells": ["pop": 3, "name": "A", "flag": ["alt": nil, "src": "/a.png"], "wiki": nil], "key": "a"],
                        ["key": "b", "href": nil],
                    ], "key": "s", "header": nil,
                ]
            ],
            "emptyText": nil,
            "columns": [
                ["kind": "number", "key": "pop"], ["key": "name"], ["key": "flag", "kind": "image"],
                ["key": "wiki", "kind": "link"],
            ],
            "title": "T",
        ]
        let doc = try ListDocument(json: input)
        let expected: JSONValue = [
            "title": "T",
            "columns": [
                ["key": "pop", "title": "", "kind": "number"], ["key": "name", "title": "", "kind": "text"],
                ["key": "flag", "title": "", "kind": "image"], ["key": "wiki", "title": "", "kind": "link"],
            ],
            "sections": [
                [
                    "key": "s", "header": nil, "footer": nil, "collapsible": false, "collapsed": false,
                    "rows": [
                        ["key": "a", "cells": ["pop": 3, "name": "A", "flag": ["src": "/a.png", "alt": ""]], "style": "default"],
                        ["key": "b", "cells": [:], "style": "default"],
                    ],
                ]
            ],
        ]
        #expect(doc.json == expected)
        let object = try #require(doc.json.objectValue)
        #expect(object.keys == ["title", "columns", "sections"])
        let cells = object["sections"]?.arrayValue?[0].objectValue?["rows"]?.arrayValue?[0].objectValue?["cells"]
        #expect(cells?.objectValue?.keys == ["pop", "name", "flag"])
        #expect(try ListDocument(json: doc.json) == doc)
    }

    @Test func omittedColumnsMeanOneTextColumn() throws {
        let doc = try ListDocument(json: ["title": "T", "sections": [["key": "s", "rows": [["key": "a", "cells": ["text": "hi"]]]]]])
        #expect(doc.columns == [Column(key: "text", title: "", kind: .text)])
        #expect(doc.sections[0].rows[0].cells == ["text": .text("hi")])
        #expect(doc.json.objectValue?["columns"] == [["key": "text", "title": "", "kind": "text"]])
    }

    @Test func validatedChecksADocumentBuiltInSwift() {
        let doc = ListDocument(title: "T", sections: [Section(key: "s", rows: [Row(key: "a"), Row(key: "a")])])
        #expect(throws: ListDocumentError.self) { try doc.validated() }
        let good = ListDocument(title: "T", sections: [Section(key: "s", rows: [Row(key: "a")])])
        #expect((try? good.validated()) == good)
    }
}
