import Testing

@testable import ListModel

/// The order, search, filters and sections of API.md section 9, on small hand-made lists.
@Suite struct ViewOrderTests {
    static let columns = [
        Column(key: "name"), Column(key: "n", kind: .number),
        Column(key: "site", kind: .link), Column(key: "flag", kind: .image),
    ]

    /// A one-section list of rows `r0`, `r1`, … with these names.
    func list(names: [String?]) -> ListDocument {
        let rows = names.enumerated().map { index, name in
            Row(key: "r\(index)", cells: name.map { ["name": CellValue.text($0)] } ?? [:])
        }
        return ListDocument(title: "T", columns: Self.columns, sections: [Section(key: "s", rows: rows)])
    }

    func viewNames(_ document: ListDocument, _ items: [(String, String)]) throws -> [String] {
        let query = try ListQuery(parameters: items.map { (name: $0.0, value: $0.1) }, columns: document.columns)
        return try document.view(query).rows.map { $0.row.key }
    }

    func sortedNames(_ names: [String?], descending: Bool = false) throws -> [String?] {
        let document = list(names: names)
        return try viewNames(document, [(descending ? "sort_desc" : "sort", "name")]).map { key in
            names[Int(key.dropFirst())!]
        }
    }

    @Test func digitRunsCompareAsNumbers() throws {
        #expect(
            try sortedNames(["Item 10", "Item 2", "Item 1", "item 9", "Item 100"])
                == ["Item 1", "Item 2", "item 9", "Item 10", "Item 100"])
        #expect(try sortedNames(["a10b", "a9c", "a9b", "a010", "a"]) == ["a", "a9b", "a9c", "a010", "a10b"])
        // A digit run sits where the digits do among code points: after space and "/", before ":" and letters.
        #expect(try sortedNames(["x:", "x1", "x/", "xa", "x "]) == ["x ", "x/", "x1", "x:", "xa"])
    }

    @Test func caseIsFoldedThenCodePointsBreakTies() throws {
        #expect(try sortedNames(["b", "B", "a", "A", "ä", "Ä"]) == ["A", "a", "B", "b", "Ä", "ä"])
        #expect(try sortedNames(["STRASSE", "Straße", "strassf", "strassd"]) == ["strassd", "STRASSE", "Straße", "strassf"])
        // Equal numbers, different digits: code points decide ("0" before "7").
        #expect(try sortedNames(["7", "007", "07"]) == ["007", "07", "7"])
    }

    @Test func emptyCellsComeLastInBothDirections() throws {
        let names: [String?] = ["b", nil, "", "a", "c"]
        #expect(try sortedNames(names) == ["a", "b", "c", nil, ""])
        #expect(try sortedNames(names, descending: true) == ["c", "b", "a", nil, ""])
    }

    @Test func tiesKeepListOrderInBothDirections() throws {
        let document = list(names: ["x", "y", "x", "X", "x"])
        #expect(try viewNames(document, [("sort", "name")]) == ["r3", "r0", "r2", "r4", "r1"])
        #expect(try viewNames(document, [("sort_desc", "name")]) == ["r1", "r0", "r2", "r4", "r3"])
    }

    @Test func numbersCompareAsNumbersAndLinksAndImagesByTheirText() throws {
        let values: [Double] = [10, -2.5, 0, 1e21, -0.0, 9.99, -1e-7]
        let rows = values.enumerated().map { index, value in
            Row(
                key: "r\(index)",
                cells: [
                    "n": .number(value),
                    "site": .link(text: "L\(index % 3)", href: "/x"),
                    "flag": .image(src: "/i", alt: index == 1 ? "" : "Flag \(10 - index)"),
                ])
        }
        let document = ListDocument(title: "T", columns: Self.columns, sections: [Section(key: "s", rows: rows)])
        #expect(try viewNames(document, [("sort", "n")]) == ["r1", "r6", "r2", "r4", "r5", "r0", "r3"])
        #expect(try viewNames(document, [("sort_desc", "site")]) == ["r2", "r5", "r1", "r4", "r0", "r3", "r6"])
        #expect(try viewNames(document, [("sort", "flag")]) == ["r6", "r5", "r4", "r3", "r2", "r0", "r1"])
        #expect(try viewNames(document, [("filter.n", "eq:0")]) == ["r2", "r4"])
        #expect(try viewNames(document, [("filter.n", "lt:0")]) == ["r1", "r6"])
        #expect(try viewNames(document, [("filter.flag", "empty")]) == ["r1"])
    }

    @Test func searchMatchesTheShownTextCaseInsensitively() throws {
        let rows = [
            Row(key: "a", cells: ["name": .text("STRASSE")]),
            Row(key: "b", cells: ["n": .number(10_000)]),
            Row(key: "c", cells: ["site": .link(text: "Straße", href: "/10000")]),
            Row(key: "d", cells: ["flag": .image(src: "/ss.png", alt: "")]),
            Row(key: "e", cells: ["other": .text("ss")]),
        ]
        let document = ListDocument(title: "T", columns: Self.columns, sections: [Section(key: "s", rows: rows)])
        #expect(try viewNames(document, [("q", "ß")]) == ["a", "c"])
        #expect(try viewNames(document, [("q", "0,0")]) == ["b"])
        #expect(try viewNames(document, [("q", "10000")]) == [])
    }

    @Test func filtersCompareByTheOrderWithoutTheCodePointTieBreak() throws {
        let document = list(names: ["Item 2", "item 02", "Item 10", "", nil, "ITEM 3"])
        #expect(try viewNames(document, [("filter.name", "eq:ITEM 2")]) == ["r0", "r1"])
        #expect(try viewNames(document, [("filter.name", "ne:item 2")]) == ["r2", "r5"])
        #expect(try viewNames(document, [("filter.name", "lt:item 3")]) == ["r0", "r1"])
        #expect(try viewNames(document, [("filter.name", "le:item 3")]) == ["r0", "r1", "r5"])
        #expect(try viewNames(document, [("filter.name", "gt:item 3")]) == ["r2"])
        #expect(try viewNames(document, [("filter.name", "ge:item 10")]) == ["r2"])
        #expect(try viewNames(document, [("filter.name", "contains:M 1")]) == ["r2"])
        #expect(try viewNames(document, [("filter.name", "prefix:item 0")]) == ["r1"])
        #expect(try viewNames(document, [("filter.name", "empty")]) == ["r3", "r4"])
        #expect(try viewNames(document, [("filter.name", "nonempty")]) == ["r0", "r1", "r2", "r5"])
    }

    @Test func sectionsWithoutMatchesAreLeftOutOnlyWhileSelecting() throws {
        let document = ListDocument(
            title: "T", columns: Self.columns,
            sections: [
                Section(key: "a", rows: [Row(key: "1", cells: ["name": .text("x")])]),
                Section(key: "empty"),
                Section(key: "b", rows: [Row(key: "2", cells: ["name": .text("y")]), Row(key: "3", cells: ["name": .text("x")])]),
                Section(key: "c", rows: [Row(key: "4", cells: ["name": .text("y")])]),
            ])
        let sorted = try document.view(ListQuery(sort: .init(column: "name", descending: true)))
        #expect(sorted.document.sections.map(\.key) == ["a", "empty", "b", "c"])
        #expect(sorted.document.sections[2].rows.map(\.key) == ["2", "3"])
        let searched = try document.view(ListQuery(search: "X"))
        #expect(searched.document.sections.map(\.key) == ["a", "b"])
        #expect(searched.document.sections[1].rows.map(\.key) == ["3"])
        let filtered = try document.view(ListQuery(filters: [.init(column: "name", op: .eq, value: "nothing")]))
        #expect(filtered.document.sections.isEmpty && filtered.rowCount == 0)
    }
}
