import ListModelTesting
import Testing

@testable import ListModel

/// The maintained view index against fresh views and the reference, over random writes.
@Suite struct ViewIndexTests {
    typealias Generator = ViewRandomTests.Generator

    /// One random keyed row write: the new list and the keys of the rows it touched.
    func write(_ list: IndexedList, using generator: inout Generator) -> (IndexedList, [String]) {
        let keys = list.document.sections.flatMap { $0.rows.map(\.key) }
        let edit: IndexedRowEdit
        switch Int.random(in: 0..<3, using: &generator.rng) {
        case 0 where !keys.isEmpty:
            edit = try! list.removingRow(key: generator.pick(keys))
        case 1 where !keys.isEmpty:
            var row = generator.row()
            row.key = generator.pick(keys)
            edit = try! list.replacingRow(row)
        default:
            guard let section = list.document.sections.randomElement(using: &generator.rng) else { return (list, []) }
            let rows = section.rows.map(\.key)
            let position: RowInsertPosition = rows.isEmpty ? .end : .after(generator.pick(rows))
            edit = try! list.insertingRows([generator.row(), generator.row()], inSection: section.key, at: position)
        }
        return (edit.list, edit.writtenRowKeys + edit.removedRowKeys)
    }

    /// Chunks of 512 rows (one per section here) and of 3 (splits and empty chunks).
    @Test(arguments: [512, 3])
    func updatesKeepTheIndexEqualToAFreshView(maxChunk: Int) throws {
        var generator = Generator(rng: SplitMix64(seed: 808))
        for round in 0..<150 {
            var list = IndexedList(document: generator.document())
            let query = generator.query()
            var index = try ViewIndex(list: list, query: query, maxChunk: maxChunk)
            for step in 0..<25 {
                let (newList, touched) = write(list, using: &generator)
                _ = index.update(to: newList, touching: touched)
                list = newList
                let fresh = try list.view(query)
                let expected = fresh.document.sections.map { ($0.key, $0.rows.map(\.key)) }
                #expect(index.rowKeysBySection.map(\.sectionKey) == expected.map(\.0), "round \(round) step \(step)")
                #expect(index.rowKeysBySection.map(\.rowKeys) == expected.map(\.1), "round \(round) step \(step)")
                #expect(index.rowCount == fresh.rowCount)
                for (sectionKey, rows) in expected {
                    for (position, row) in rows.enumerated() where position % 3 == 0 {
                        #expect(index.location(ofRow: row)! == (sectionKey, position))
                    }
                }
                // Windows end where a fresh view's pages do, and hold the rows up to there.
                if fresh.rowCount > 0 {
                    let limit = Int.random(in: 1...fresh.rowCount, using: &generator.rng)
                    let cursor = fresh.cursor(atPosition: limit - 1)
                    #expect(index.windowEnd(limit: limit) == .through(cursor), "round \(round) step \(step)")
                    #expect(index.windowShape(.through(cursor)).rowCount == limit, "round \(round) step \(step)")
                }
            }
        }
    }

    /// A sort value's prefix orders as the values do, and an exact prefix is shared only by
    /// equal values, whatever head the texts are read after.
    @Test func prefixesOrderAsTheirSortValues() {
        let cells: [CellValue?] = [nil] + ViewRandomTests.words.map { .text($0) } + ViewRandomTests.numbers.map { .number($0) }
        let values = cells.map { SortValue($0) }
        let texts = values.filter { $0.bytes.first == 0x02 }
        let heads = [[]] + texts.flatMap { text in [1, 3, 6, 10, 64].map { Array(text.bytes.prefix($0)) } }
        for head in heads {
            for a in values {
                for b in values {
                    let (first, second) = (a.prefix(head: head), b.prefix(head: head))
                    if a.compare(b) < 0 { #expect(first <= second, "\(a.bytes) \(b.bytes) after \(head)") }
                    if first == second && SortValue.prefixIsExact(first) { #expect(a == b, "\(a.bytes) \(b.bytes) after \(head)") }
                    #expect((first == 0) == a.isEmpty)
                }
            }
        }
    }

    /// A section whose texts all begin alike (or are all equal) keeps its order as rows below,
    /// at and above what they shared come and go.
    @Test(arguments: ["Straße entlang ", "plain"])
    func rowsAroundASharedBeginningKeepTheirOrder(shared: String) throws {
        let rows = (0..<40).map { Row(key: "r\($0)", cells: ["name": .text(shared == "plain" ? "plain" : "\(shared)\($0 * 7 % 40)")]) }
        let document = ListDocument(title: "T", columns: ViewRandomTests.columns, sections: [Section(key: "s", rows: rows)])
        let writes = ["A", "Straße", shared, "\(shared)1", "STRASSE ENTLANG 3", "plain", "plaiN", "zz", "", "Straße entlang 39"]
        for sort in ["sort", "sort_desc"] {
            var list = IndexedList(document: document)
            let query = try ListQuery(parameters: [(sort, "name")], columns: ViewRandomTests.columns)
            var index = try ViewIndex(list: list, query: query, maxChunk: 4)
            for (step, text) in writes.enumerated() {
                var row = Row(key: "r\(step * 3)")
                if !text.isEmpty { row.cells["name"] = .text(text) }
                let edit = try list.replacingRow(row)
                _ = index.update(to: edit.list, touching: edit.writtenRowKeys)
                list = edit.list
                let fresh = try list.view(query)
                #expect(index.rowKeysBySection.map(\.rowKeys) == fresh.document.sections.map { $0.rows.map(\.key) }, "\(sort) \(text)")
                #expect(index.windowEnd(limit: 20) == .through(fresh.cursor(atPosition: 19)))
                #expect(
                    index.location(ofRow: row.key)! == (
                        "s", fresh.sections[0].rows.firstIndex { fresh.list.document.sections[0].rows[$0].key == row.key }!
                    ))
            }
        }
    }

    /// Entered, left, moved and changed per window, against the reference's views before and
    /// after the write.
    @Test func windowChangesMatchTheReference() throws {
        var generator = Generator(rng: SplitMix64(seed: 5150))
        var nonEmpty = 0
        for round in 0..<200 {
            var list = IndexedList(document: generator.document())
            let query = generator.query()
            var index = try ViewIndex(list: list, query: query, maxChunk: 3)
            for _ in 0..<10 {
                let old = try list.view(query)
                let end: ViewCursor? =
                    old.rowCount == 0 || generator.chance(5)
                    ? nil
                    : old.cursor(atPosition: Int.random(in: 0..<old.rowCount, using: &generator.rng))
                let (newList, touched) = write(list, using: &generator)
                let changes = index.update(to: newList, touching: touched).window(through: end)
                let expected = referenceChanges(old: list, new: newList, query: query, end: end, touched: touched)
                #expect(changes == expected, "round \(round): \(query.queryString)")
                if changes != ViewWindowChanges() { nonEmpty += 1 }
                list = newList
            }
        }
        #expect(nonEmpty > 200)
    }

    func referenceChanges(
        old: IndexedList, new: IndexedList, query: ListQuery, end: ViewCursor?,
        touched: [String]
    ) -> ViewWindowChanges {
        // Where each row of a version is: section position, cell, order key, row; nil when not in the view.
        func places(_ list: IndexedList) -> [String: (section: Int, cell: CellValue?, key: OrderKey, row: Row)] {
            var keys: [String: OrderKey] = [:]
            for section in list.document.sections { for row in section.rows { keys[row.key] = list.orderKey(ofRow: row.key) } }
            let reference = ViewReference(document: list.document, query: query, orderKeys: keys)
            var out: [String: (section: Int, cell: CellValue?, key: OrderKey, row: Row)] = [:]
            for (sectionKey, rows) in reference.sections() {
                let section = list.document.sections.firstIndex { $0.key == sectionKey }!
                for rowKey in rows {
                    let row = list.row(atPosition: list.position(ofRow: rowKey)!)
                    out[rowKey] = (section, query.sort.map { row.cells[$0.column] } ?? nil, keys[rowKey]!, row)
                }
            }
            return out
        }
        let before = places(old), after = places(new)
        let reference = ViewReference(document: old.document, query: query, orderKeys: [:])
        // The end of the window: the cursor's row as it was in the old version.
        let endPlace = end.map { before[$0.rowKey]! }
        func inWindow(_ place: (section: Int, cell: CellValue?, key: OrderKey, row: Row)?, _ list: IndexedList) -> Bool {
            guard let place else { return false }
            guard let endPlace, let end else { return true }
            let endSection = list.document.sections.firstIndex { $0.key == end.sectionKey }!
            if place.section != endSection { return place.section < endSection }
            return !reference.comesBefore(endPlace.cell, endPlace.key, place.cell, place.key)
        }
        var result = ViewWindowChanges()
        for key in Set(touched).sorted() {
            let was = inWindow(before[key], old), now = inWindow(after[key], new)
            if !was && now { result.entered.append(key) }
            if was && !now { result.left.append(key) }
            if was && now {
                let a = before[key]!, b = after[key]!
                let sameSortValue =
                    reference.isEmpty(a.cell) == reference.isEmpty(b.cell)
                    && (reference.isEmpty(a.cell) || reference.compare(a.cell!, b.cell!) == 0)
                let sameSection = old.document.sections[a.section].key == new.document.sections[b.section].key
                if !(sameSortValue && sameSection && a.key == b.key) {
                    result.moved.append(key)
                } else if a.row != b.row {
                    result.changed.append(key)
                }
            }
        }
        return result
    }
}
