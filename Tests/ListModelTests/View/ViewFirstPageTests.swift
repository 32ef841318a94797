import ListModelTesting
import Testing

@testable import ListModel

/// The first page of a view read without the view (`IndexedList.firstViewPage`) is the built
/// view's first page, part for part, with the same cursors, footers and emptiness.
@Suite struct ViewFirstPageTests {
    typealias Generator = ViewRandomTests.Generator

    /// A list of `sections` sections of up to `rows` rows each (some empty).
    func document(_ generator: inout Generator, sections: Int, rows: Int) -> ListDocument {
        let sections = (0..<sections).map { index in
            let count = generator.chance(4) ? 0 : Int.random(in: 0...rows, using: &generator.rng)
            return Section(key: "s\(index)", rows: (0..<count).map { _ in generator.row() })
        }
        return ListDocument(title: "T", columns: ViewRandomTests.columns, sections: sections)
    }

    func expectSame(_ list: IndexedList, _ query: ListQuery, limit: Int, _ what: String) throws {
        let view = try list.view(query)
        let expected = view.shown(try view.page(after: nil, limit: limit))
        let actual = try list.firstViewPage(query, limit: limit)
        #expect(actual.page.parts == expected.page.parts, "\(what): \(query.queryString) limit \(limit)")
        #expect(actual.page.next?.encoded == expected.page.next?.encoded, "\(what): next")
        #expect(actual.lastCursor?.encoded == expected.lastCursor?.encoded, "\(what): last cursor")
        #expect(actual.endsSection == expected.endsSection, "\(what): footers")
        #expect(actual.viewIsEmpty == expected.viewIsEmpty, "\(what): empty")
    }

    @Test func smallListsGiveTheViewsFirstPage() throws {
        var generator = Generator(rng: SplitMix64(seed: 2026_11_27))
        for round in 0..<600 {
            let list = IndexedList(document: generator.document())
            let query = generator.query()
            // Pages that end right at the view's last row, or one row before or after it, too.
            let rows = try list.view(query).rowCount
            let limit = generator.pick([Int.random(in: 1...8, using: &generator.rng), rows, rows + 1, rows - 1])
            try expectSame(list, query, limit: max(1, limit), "round \(round)")
        }
    }

    /// A page that ends with the view's last row shows the empty sections after it; one that
    /// ends before more rows leaves them to a later page.
    @Test func emptySectionsAfterAFullPage() throws {
        let rows = { (keys: [String]) in keys.map { Row(key: $0, cells: ["pop": .number(Double($0.count))]) } }
        let document = ListDocument(
            title: "T", columns: ViewRandomTests.columns,
            sections: [
                Section(key: "a", rows: rows(["x", "yy"])), Section(key: "empty", rows: []),
                Section(key: "b", rows: rows(["zzz"])), Section(key: "end", rows: []),
            ])
        let list = IndexedList(document: document)
        let query = try ListQuery(parameters: [("sort_desc", "pop")], columns: ViewRandomTests.columns)
        for limit in 1...4 { try expectSame(list, query, limit: limit, "limit \(limit)") }
        let whole = try list.firstViewPage(query, limit: 3)
        #expect(whole.page.parts.map(\.sectionIndex) == [0, 1, 2, 3])
        #expect(whole.page.next == nil)
        let two = try list.firstViewPage(query, limit: 2)
        #expect(two.page.parts.map(\.sectionIndex) == [0])
        #expect(two.page.parts[0].rows == [1, 0])
        #expect(two.endsSection == [true])
    }

    /// Long sections, many equal values: the rows kept while reading are cut down many times.
    @Test func longSectionsGiveTheViewsFirstPage() throws {
        var generator = Generator(rng: SplitMix64(seed: 77))
        for round in 0..<120 {
            let sections = Int.random(in: 1...3, using: &generator.rng)
            let list = IndexedList(document: document(&generator, sections: sections, rows: 400))
            let limit = generator.pick([1, 2, 3, 7, 50, 60, 500])
            try expectSame(list, generator.query(), limit: limit, "round \(round)")
        }
    }

    /// Long texts that share their first bytes (so their prefixes tie) and differ after them, or
    /// only in case or digits: rows left after reading a value's first bytes must be exactly
    /// those that cannot be on the page.
    @Test func longTextsSharingTheirStartGiveTheViewsFirstPage() throws {
        var generator = Generator(rng: SplitMix64(seed: 1616))
        let starts = ["A shared beginning of twenty ", "a SHARED beginning of twenty ", "Item 000123 <r", "Straße ist lang und breit "]
        for round in 0..<150 {
            let sections = (0..<Int.random(in: 1...3, using: &generator.rng)).map { index in
                Section(
                    key: "s\(index)",
                    rows: (0..<Int.random(in: 0...200, using: &generator.rng)).map { row in
                        let name = generator.pick(starts) + generator.pick(["", "b", "B", "7", "07", "x y", "10"]) + "\(row % 13)"
                        return Row(key: "r\(index)-\(row)", cells: ["name": .text(name)])
                    })
            }
            let list = IndexedList(document: ListDocument(title: "T", columns: ViewRandomTests.columns, sections: sections))
            let query = try ListQuery(parameters: [(generator.chance(2) ? "sort" : "sort_desc", "name")], columns: ViewRandomTests.columns)
            try expectSame(list, query, limit: generator.pick([1, 3, 10, 50]), "round \(round)")
        }
    }
}

extension ViewFirstPageTests {
    /// Sections whose values mostly run one way (a list built by appends: times, numbers that
    /// grow), read by a view in the other direction: read from their end in blocks, where ties,
    /// empty values, rows a filter leaves out and values out of the run must still come out in
    /// the built view's order.
    @Test func sectionsRunningAgainstTheViewGiveTheViewsFirstPage() throws {
        var generator = Generator(rng: SplitMix64(seed: 2811))
        let columns = ViewRandomTests.columns
        for round in 0..<100 {
            let growing = generator.chance(2)
            let steps = generator.pick([[0, 1, 1, 2, 5], [0, 0, 0, 1]])  // ties, and steps
            var empties = 0
            let sections = (0..<Int.random(in: 1...2, using: &generator.rng)).map { index in
                let count = Int.random(in: 600...3_000, using: &generator.rng)
                var next = 0
                return Section(
                    key: "s\(index)",
                    rows: (0..<count).map { row in
                        next += generator.pick(steps)
                        var cells: RowCells = ["name": .text("n\(row % 7)")]
                        if row == 0 || row == count - 1 || !generator.chance(10) {  // some empty, not the ends
                            let value = generator.chance(30) ? Int.random(in: 0...next, using: &generator.rng) : next
                            cells["pop"] = .number(Double(growing ? value : -value))
                        } else {
                            empties += 1
                        }
                        return Row(key: "r\(index)-\(row)", cells: cells)
                    })
            }
            let list = IndexedList(document: ListDocument(title: "T", columns: columns, sections: sections))
            var parameters = [(growing ? "sort_desc" : "sort", "pop")]
            if generator.chance(3) { parameters.append(("filter.name", generator.pick(["ne:n3", "eq:n1"]))) }
            let query = try ListQuery(parameters: parameters, columns: columns)
            // Pages that end among the tied values, across blocks, and among the empty values
            // (which come last): some of them on the page, not all.
            let rows = try list.view(query).rowCount
            let limit = generator.pick([1, 50, 255, 257, 300, 700, max(1, rows - empties / 2), max(1, rows - 1)])
            try expectSame(list, query, limit: limit, "round \(round)")
        }
    }
}

extension IndexedList {
    /// The first page of the view of `query` as a server reads it before the view is built: from
    /// the view's first rows, one more than the page (`viewHead`).
    func firstViewPage(_ query: ListQuery, limit: Int) throws -> ShownViewPage {
        try #require(try viewHead(query, rows: max(1, limit) + 1).page(after: nil, limit: limit))
    }
}
