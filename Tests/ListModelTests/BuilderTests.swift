import ListModel
import Testing

/// A typed row model, as a Swift user would write one.
struct Country: ListRowConvertible {
    var code: String
    var name: String
    var population: Double?
    var featured = false

    var rowKey: String { code }
    var cells: [Cell] {
        Cell("name", name)
        Cell("pop", population)
        if featured { Cell("wiki", link: "Wikipedia", href: "https://en.wikipedia.org/wiki/\(name)") }
    }
    var rowHref: String? { "/countries/\(code)" }
    var rowStyle: RowStyle { featured ? .highlight : .default }
}

@Suite struct BuilderTests {
    let countries = [
        Country(code: "fr", name: "France", population: 68.2),
        Country(code: "de", name: "Germany", population: nil, featured: true),
    ]

    @Test func theReadmeExampleBuildsTheDocumentItSays() throws {
        let doc = ListDocument("Countries") {
            Column.text("name", "Name")
            Column.number("pop", "Population")
            Column.link("wiki", "More")
            Column.image("flag", "Flag")
            Section("eu", header: "Europe", footer: "3 countries") {
                Row("it") {
                    Cell("name", "Italy")
                    Cell("pop", 58.9)
                    Cell("flag", image: "/img/it.png", alt: "Italian flag")
                }
                for country in countries { country }
            }
        }
        let expected = ListDocument(
            title: "Countries",
            columns: [
                Column(key: "name", title: "Name"), Column(key: "pop", title: "Population", kind: .number),
                Column(key: "wiki", title: "More", kind: .link), Column(key: "flag", title: "Flag", kind: .image),
            ],
            sections: [
                Section(
                    key: "eu", header: "Europe", footer: "3 countries",
                    rows: [
                        Row(
                            key: "it",
                            cells: [
                                "name": .text("Italy"), "pop": .number(58.9),
                                "flag": .image(src: "/img/it.png", alt: "Italian flag"),
                            ]),
                        Row(key: "fr", cells: ["name": .text("France"), "pop": .number(68.2)], href: "/countries/fr"),
                        Row(
                            key: "de",
                            cells: [
                                "name": .text("Germany"),
                                "wiki": .link(text: "Wikipedia", href: "https://en.wikipedia.org/wiki/Germany"),
                            ],
                            href: "/countries/de", style: .highlight),
                    ])
            ]
        )
        #expect(doc == expected)
        #expect(try doc.validated() == doc)
    }

    /// The example of docs/SWIFT.md, as written there.
    @Test func theSwiftGuideExample() throws {
        let showArchive = true
        let archivedCountries = [Country(code: "yu", name: "Yugoslavia", population: nil)]
        let countries = [
            Country(code: "fr", name: "France", population: 68.2),
            Country(code: "de", name: "Germany", population: 84.5),
        ]
        let doc = ListDocument("Countries", emptyText: "No countries") {
            Column.text("name", "Name")
            Column.number("pop", "Population")
            Column.image("flag", "Flag")
            Column.link("wiki", "More")

            Section("eu", header: "Europe", footer: "3 countries") {
                Row("it") {
                    Cell("name", "Italy")
                    Cell("pop", 58.9)
                    Cell("flag", image: "/img/it.png", alt: "Italian flag")
                    Cell("wiki", link: "Wikipedia", href: "https://en.wikipedia.org/wiki/Italy")
                }
                for country in countries { country }
            }
            if showArchive {
                Section("archive", header: "Archive", collapsible: true, collapsed: true) {
                    archivedCountries
                }
            }
        }
        let checked = try doc.validated()
        #expect(checked.json.objectValue?["sections"]?.arrayValue?.count == 2)
        #expect(checked.rowCount == 4)
        #expect(checked.emptyText == "No countries")
        #expect(checked.sections[1].rows[0].cells == ["name": .text("Yugoslavia")])

        let list = IndexedList(document: checked)
        let page = list.page(after: nil, limit: 2)
        #expect(checked.sections(in: page.parts).flatMap { $0.rows.map(\.key) } == ["it", "fr"])
        let next = try #require(page.next)
        let following = list.page(after: try Cursor(decoding: next.encoded), limit: 50)
        #expect(checked.sections(in: following.parts).map(\.key) == ["eu", "archive"])
        #expect(following.next == nil)
    }

    @Test func conditionalsLoopsAndOptionals() {
        let showEmpty = false
        let archived: Section? = nil
        let extra: Country? = Country(code: "es", name: "Spain", population: 48)
        let doc = ListDocument("T", emptyText: "None", rowHeight: 32) {
            if showEmpty {
                Section("empty")
            } else {
                Section("full", collapsible: true) {
                    Row("a")
                    if let extra { extra }
                    countries
                    for index in 0..<2 {
                        Row("n\(index)", style: index == 0 ? .muted : .default) {
                            if index == 0 { Cell("text", "zero") } else { Cell("text", index) }
                        }
                    }
                }
            }
            archived
            for key in ["x", "y"] { Section(key) }
        }
        #expect(doc.columns == [Column.defaultColumn])
        #expect(doc.emptyText == "None" && doc.rowHeight == 32)
        #expect(doc.sections.map(\.key) == ["full", "x", "y"])
        #expect(doc.sections[0].collapsible)
        #expect(doc.sections[0].rows.map(\.key) == ["a", "es", "fr", "de", "n0", "n1"])
        #expect(doc.sections[0].rows[4].cells == ["text": .text("zero")])
        #expect(doc.sections[0].rows[4].style == .muted)
        #expect(doc.sections[0].rows[5].cells == ["text": .number(1)])
    }

    @Test func nilCellsAreEmptyAndTheLastCellOfAColumnWins() {
        let row = Row("r") {
            Cell("a", "first")
            Cell("a", "second")
            Cell("b", nil as String?)
            Cell("c", CellValue.number(3))
        }
        #expect(row.cells == ["a": .text("second"), "c": .number(3)])
        #expect(Country(code: "x", name: "X", population: nil).listRow.cells == ["name": .text("X")])
    }

    @Test func buildingDoesNotValidateButValidatedDoes() {
        let doc = ListDocument("T") {
            Section("s") {
                Row("dup")
                Row("dup")
            }
        }
        #expect(doc.rowCount == 2)
        let error = #expect(throws: ListDocumentError.self) { try doc.validated() }
        #expect(error?.description == "/sections/0/rows/1/key: duplicate row key \"dup\", also at /sections/0/rows/0/key")
    }
}
