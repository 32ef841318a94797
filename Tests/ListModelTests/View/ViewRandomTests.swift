import ListModelTesting
import Testing

@testable import ListModel

/// The library's views against `ViewReference` on random lists, queries and page sizes.
@Suite struct ViewRandomTests {
    static let columns = [
        Column(key: "name"), Column(key: "pop", kind: .number),
        Column(key: "site", kind: .link), Column(key: "flag", kind: .image),
    ]
    static let words = [
        "Item 2", "item 10", "ITEM 02", "Item 1", "Straße", "STRASSE", "strasse 3", "", "café",
        "CAFÉ", "Zürich", "zurich", "ǰ", "ß", "ss", "a", "A", "b", "Ab1", "ab01", " x", "ΣΑΣ",
        "σας", "ﬁle", "file", "007", "7", "x\u{0}y", "x\u{1}y", "\u{212A}elvin", "kelvin", "Ꭰ",
        "ꭰ", "emoji 🎉", "10,000", "1e-05",
        // Long shared beginnings: live views keep 8 bytes of a sort value and read the rest.
        "Item 123456 <r1> & co", "item 123456 <r2> & co", "ITEM 123457 <r1> & co", "Straße entlang 1",
        "STRASSE ENTLANG 1", "strasse entlang 10", "Zürich Hauptbahnhof", "zurich hauptbahnhof",
    ]
    static let numbers: [Double] = [
        0, -0.0, 1, 2, 10, 10_000, -3.5, 0.1, 1e-5, 1e21, 2.5, 99, 100, 1.0.nextUp, 1e21.nextDown, -1e300,
        .leastNonzeroMagnitude, -.greatestFiniteMagnitude,
    ]
    static let searches = ["item", "SS", "1", "é", "0", ",", "10,0", "Σ", "fi", "k", "🎉", "x\u{0}", "e-0", "2"]

    struct Generator {
        var rng: SplitMix64
        var serial = 0

        mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &rng)] }
        mutating func chance(_ n: Int) -> Bool { Int.random(in: 0..<n, using: &rng) == 0 }

        mutating func row() -> Row {
            serial += 1
            var row = Row(key: "r\(serial)")
            if !chance(5) { row.cells["name"] = .text(pick(words)) }
            if !chance(4) { row.cells["pop"] = .number(pick(numbers)) }
            if !chance(3) { row.cells["site"] = .link(text: pick(words), href: "/s") }
            if !chance(3) { row.cells["flag"] = .image(src: "/f.png", alt: pick(words)) }
            return row
        }

        mutating func document() -> ListDocument {
            let sections = (0..<Int.random(in: 0...4, using: &rng)).map { index in
                Section(key: "s\(index)", rows: (0..<Int.random(in: 0...12, using: &rng)).map { _ in row() })
            }
            return ListDocument(title: "T", columns: columns, sections: sections)
        }

        mutating func query() -> ListQuery {
            var items: [(name: String, value: String)] = []
            if !chance(4) { items.append((chance(2) ? "sort" : "sort_desc", pick(columns).key)) }
            if chance(3) { items.append(("q", pick(searches))) }
            for column in columns where chance(4) {
                let op = pick(ListQuery.FilterOperator.allCases)
                guard op.takesValue else {
                    items.append(("filter.\(column.key)", op.rawValue))
                    continue
                }
                let value =
                    column.kind == .number
                    ? pick(["0", "2", "10", "-1", "1e1", "99.5", "10000"])
                    : pick(words.filter { !$0.isEmpty } + searches)
                items.append(("filter.\(column.key)", "\(op.rawValue):\(value)"))
            }
            return try! ListQuery(parameters: items, columns: columns)
        }
    }

    func reference(_ list: IndexedList, _ query: ListQuery) -> ViewReference {
        var keys: [String: OrderKey] = [:]
        for section in list.document.sections { for row in section.rows { keys[row.key] = list.orderKey(ofRow: row.key) } }
        return ViewReference(document: list.document, query: query, orderKeys: keys)
    }

    @Test func viewsMatchTheReference() throws {
        var generator = Generator(rng: SplitMix64(seed: 9_2026))
        for round in 0..<400 {
            let list = IndexedList(document: generator.document())
            let query = generator.query()
            let view = try list.view(query)
            let expected = reference(list, query).sections()
            let actual = view.document.sections.map { (key: $0.key, rows: $0.rows.map(\.key)) }
            #expect(actual.map(\.key) == expected.map(\.key), "round \(round): \(query.queryString)")
            #expect(actual.map(\.rows) == expected.map(\.rows), "round \(round): \(query.queryString)")
            #expect(view.rowCount == expected.reduce(0) { $0 + $1.rows.count })
        }
    }

    /// Walking every page gives the whole view once, in order, each section begun once.
    @Test func pagesWalkTheWholeView() throws {
        var generator = Generator(rng: SplitMix64(seed: 31))
        for round in 0..<300 {
            let list = IndexedList(document: generator.document())
            let query = generator.query()
            let view = try list.view(query)
            let limit = Int.random(in: 1...7, using: &generator.rng)
            var cursor: ViewCursor?
            var walked: [(section: String, row: String)] = []
            var begun: [String] = []
            for _ in 0...(view.rowCount + 1) {
                let page = try view.page(after: cursor.map { try ViewCursor(decoding: $0.encoded) }, limit: limit)
                #expect(page.parts.reduce(0) { $0 + $1.rows.count } <= limit)
                for (part, section) in zip(page.parts, view.sections(in: page)) {
                    if !part.continuesSection { begun.append(section.key) }
                    walked += section.rows.map { (section.key, $0.key) }
                }
                guard let next = page.next else { break }
                cursor = next
            }
            let expected = reference(list, query).sections()
            #expect(walked.map(\.row) == expected.flatMap(\.rows), "round \(round): \(query.queryString) limit \(limit)")
            #expect(walked.map(\.section) == expected.flatMap { section in section.rows.map { _ in section.key } })
            #expect(begun == expected.map(\.key), "round \(round): \(query.queryString) limit \(limit)")
        }
    }

    /// Without sort, q or filters, a view's pages are the list's pages (rows, sections, headers).
    @Test func theIdentityViewPagesAsTheListDoes() throws {
        var generator = Generator(rng: SplitMix64(seed: 64))
        for _ in 0..<200 {
            let list = IndexedList(document: generator.document())
            let view = try list.view(ListQuery())
            let limit = Int.random(in: 1...6, using: &generator.rng)
            var listCursor: Cursor?
            var viewCursor: ViewCursor?
            for _ in 0...(list.rowCount + 1) {
                let listPage = list.page(after: listCursor, limit: limit)
                let viewPage = try view.page(after: viewCursor, limit: limit)
                #expect(viewPage.parts.map(\.sectionIndex) == listPage.parts.map(\.sectionIndex))
                #expect(viewPage.parts.map(\.rows) == listPage.parts.map { Array($0.rows) })
                #expect(viewPage.parts.map(\.continuesSection) == listPage.parts.map(\.continuesSection))
                #expect((viewPage.next == nil) == (listPage.next == nil))
                guard let next = listPage.next, let nextView = viewPage.next else { break }
                #expect(nextView.rowKey == next.rowKey && nextView.orderKey == next.orderKey)
                listCursor = next
                viewCursor = nextView
            }
        }
    }

    /// Rows inserted, deleted or changed between two pages never shift the cursor: the next page
    /// begins with the first row of the new view that comes after the cursor's row as it was.
    @Test func cursorsContinueAfterTheirRowWhileTheListChanges() throws {
        var generator = Generator(rng: SplitMix64(seed: 4711))
        var compared = 0
        for round in 0..<300 {
            var list = IndexedList(document: generator.document())
            let query = generator.query()
            let limit = Int.random(in: 1...5, using: &generator.rng)
            var cursor: ViewCursor?
            var last: (cell: CellValue?, orderKey: OrderKey, section: String)?
            for _ in 0..<40 {
                let view = try list.view(query)
                let page = try view.page(after: cursor, limit: limit)
                let rows = view.sections(in: page).flatMap { section in section.rows.map { (section.key, $0) } }
                if let last {
                    // The reference: the first rows of the new view after the old cursor row.
                    let ref = reference(list, query)
                    let sectionOrder = list.document.sections.map(\.key)
                    let after = ref.sections().flatMap { section in section.rows.map { (section.key, $0) } }.filter { key, row in
                        let a = sectionOrder.firstIndex(of: key)!, b = sectionOrder.firstIndex(of: last.section)!
                        if a != b { return a > b }
                        let cells = list.row(atPosition: list.position(ofRow: row)!).cells
                        return ref.comesBefore(
                            last.cell, last.orderKey, query.sort.map { cells[$0.column] } ?? nil,
                            list.orderKey(ofRow: row)!)
                    }
                    #expect(rows.map(\.1.key) == after.prefix(limit).map(\.1), "round \(round): \(query.queryString)")
                    compared += 1
                }
                guard let next = page.next, let (section, row) = rows.last else { break }
                cursor = next
                last = (query.sort.map { row.cells[$0.column] } ?? nil, list.orderKey(ofRow: row.key)!, section)
                list = edited(list, using: &generator)
            }
        }
        #expect(compared > 300)  // the walks are long enough to test something
    }

    /// In a sorted view whose rows are deleted and inserted between pages, no section is begun
    /// twice, and a section that stays empty throughout is delivered exactly once.
    @Test func emptySectionsAreDeliveredOnceWhileRowsChange() throws {
        var generator = Generator(rng: SplitMix64(seed: 1234))
        for round in 0..<300 {
            var list = IndexedList(document: generator.document())
            let query = ListQuery(sort: .init(column: generator.pick(Self.columns).key, descending: generator.chance(2)))
            let limit = Int.random(in: 1...4, using: &generator.rng)
            var alwaysEmpty = Set(list.document.sections.filter { $0.rows.isEmpty }.map(\.key))
            var begun: [String: Int] = [:]
            var delivered: [String: Int] = [:]
            var cursor: ViewCursor?
            for _ in 0..<60 {
                let view = try list.view(query)
                let page = try view.page(after: cursor, limit: limit)
                for part in page.parts {
                    let key = list.document.sections[part.sectionIndex].key
                    delivered[key, default: 0] += 1
                    if !part.continuesSection { begun[key, default: 0] += 1 }
                }
                guard let next = page.next else { break }
                cursor = next
                list = edited(list, using: &generator)
                alwaysEmpty.subtract(list.document.sections.filter { !$0.rows.isEmpty }.map(\.key))
            }
            #expect(begun.values.allSatisfy { $0 == 1 }, "round \(round): \(begun)")
            for key in alwaysEmpty { #expect(delivered[key] == 1, "round \(round): section \(key)") }
        }
    }

    /// A few row removals, insertions and changes (sections stay).
    func edited(_ list: IndexedList, using generator: inout Generator) -> IndexedList {
        var list = list
        for _ in 0..<Int.random(in: 0...4, using: &generator.rng) {
            let keys = list.document.sections.flatMap { $0.rows.map(\.key) }
            switch Int.random(in: 0..<3, using: &generator.rng) {
            case 0 where !keys.isEmpty:
                list = try! list.removingRow(key: generator.pick(keys)).list
            case 1 where !keys.isEmpty:
                var row = generator.row()
                row.key = generator.pick(keys)
                list = try! list.replacingRow(row).list
            default:
                guard let section = list.document.sections.randomElement(using: &generator.rng) else { continue }
                let rows = section.rows.map(\.key)
                let position: RowInsertPosition =
                    rows.isEmpty || generator.chance(3)
                    ? .end
                    : (generator.chance(2) ? .before(generator.pick(rows)) : .after(generator.pick(rows)))
                list = try! list.insertingRows([generator.row()], inSection: section.key, at: position).list
            }
        }
        return list
    }
}
