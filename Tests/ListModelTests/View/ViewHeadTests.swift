import ListModelTesting
import Testing

@testable import ListModel

/// A view's first rows read without the view (`IndexedList.viewHead`) answer exactly the pages
/// the built view gives that end before the head's last row, and no others; a head holding the
/// whole view is that view.
@Suite struct ViewHeadTests {
    typealias Generator = ViewRandomTests.Generator

    /// Checks `head`'s answer for the page after `cursor` against the whole view's.
    func expectPage(
        _ head: ViewHead, _ view: ListView, after cursor: ViewCursor?, limit: Int, _ what: String
    ) throws -> Bool {
        let expected = view.shown(try view.page(after: cursor, limit: limit))
        let start = cursor.map { view.position(after: $0) } ?? 0
        let answerable = head.isWhole || start + limit < head.view.rowCount
        guard let actual = try head.page(after: cursor, limit: limit) else {
            #expect(!answerable, "\(what): the head holds the page but did not answer")
            return false
        }
        #expect(answerable, "\(what): the head answered a page reaching its end")
        #expect(actual.page.parts == expected.page.parts, "\(what): parts")
        #expect(actual.page.next?.encoded == expected.page.next?.encoded, "\(what): next")
        #expect(actual.lastCursor?.encoded == expected.lastCursor?.encoded, "\(what): last cursor")
        #expect(actual.endsSection == expected.endsSection, "\(what): footers")
        #expect(actual.viewIsEmpty == expected.viewIsEmpty, "\(what): empty")
        return true
    }

    @Test func pagesAmongTheHeadsRowsAreTheViews() throws {
        var generator = Generator(rng: SplitMix64(seed: 2026_11_28))
        var answered = 0
        var declined = 0
        for round in 0..<500 {
            let list = IndexedList(document: generator.document())
            let query = generator.query()
            let view = try list.view(query)
            let rows = generator.pick([1, 2, 3, 5, 8, view.rowCount - 1, view.rowCount, view.rowCount + 1])
            let head = try list.viewHead(query, rows: rows)
            #expect(head.isWhole == (view.rowCount <= max(1, rows)), "round \(round): whole")
            if head.isWhole { #expect(head.view.sections == view.sections, "round \(round): whole view") }
            // Walk the view page by page, and start from a cursor at every row.
            let limit = Int.random(in: 1...4, using: &generator.rng)
            var cursor: ViewCursor?
            repeat {
                if try expectPage(head, view, after: cursor, limit: limit, "round \(round) walk") { answered += 1 } else { declined += 1 }
                cursor = try view.page(after: cursor, limit: limit).next
            } while cursor != nil
            for position in 0..<view.rowCount {
                let cursor = view.cursor(atPosition: position)
                _ = try expectPage(head, view, after: cursor, limit: limit, "round \(round) at \(position)")
            }
        }
        #expect(answered > 500 && declined > 200)  // both kinds of page were asked for
    }

    /// Cursors made by an older version of the list (rows edited, a section gone since) position
    /// in a head as in the whole view.
    @Test func cursorsFromOlderVersionsPositionAsInTheView() throws {
        var generator = Generator(rng: SplitMix64(seed: 31))
        for round in 0..<300 {
            let older = IndexedList(document: generator.document())
            let query = generator.query()
            let olderView = try older.view(query)
            guard olderView.rowCount > 0 else { continue }
            var list = ViewRandomTests().edited(older, using: &generator)
            if generator.chance(3), !list.document.sections.isEmpty {
                let index = Int.random(in: 0..<list.document.sections.count, using: &generator.rng)
                list = try list.applying(JSONPatch(parsing: Array(#"[{"op":"remove","path":"/sections/\#(index)"}]"#.utf8))).list
            }
            let view = try list.view(query)
            let head = try list.viewHead(query, rows: Int.random(in: 1...8, using: &generator.rng))
            for position in 0..<olderView.rowCount {
                let cursor = olderView.cursor(atPosition: position)
                _ = try expectPage(head, view, after: cursor, limit: Int.random(in: 1...3, using: &generator.rng), "round \(round)")
            }
        }
    }

    @Test func aCursorOfAnotherViewIsRefused() throws {
        var generator = Generator(rng: SplitMix64(seed: 5))
        let list = IndexedList(document: generator.document())
        let sorted = try ListQuery(parameters: [("sort", "pop")], columns: ViewRandomTests.columns)
        let other = try ListQuery(parameters: [("sort_desc", "pop")], columns: ViewRandomTests.columns)
        let view = try list.view(other)
        guard view.rowCount > 0 else { return }
        let head = try list.viewHead(sorted, rows: 1)
        #expect(throws: CursorError.otherView) { try head.page(after: view.cursor(atPosition: 0), limit: 1) }
    }

    /// A page ending in the second half of a head that is not the whole view is near its end
    /// (the server then builds the view); the pages before it, and any page of a whole head, are not.
    @Test func pagesInTheSecondHalfOfAHeadAreNearItsEnd() throws {
        let rows = (0..<30).map { Row(key: "r\($0)", cells: ["pop": .number(Double(($0 * 7) % 30))]) }
        let list = IndexedList(
            document: ListDocument(title: "T", columns: ViewRandomTests.columns, sections: [Section(key: "s", rows: rows)]))
        let query = try ListQuery(parameters: [("sort", "pop")], columns: ViewRandomTests.columns)
        let head = try list.viewHead(query, rows: 10)
        var cursor: ViewCursor?
        var near: [Bool] = []
        while let shown = try head.page(after: cursor, limit: 2) {
            near.append(head.isNearItsEnd(shown))
            cursor = shown.page.next
        }
        #expect(near == [false, false, true, true])  // pages ending at rows 2, 4, 6, 8; the fifth reaches the head's end
        let whole = try list.viewHead(query, rows: 30)
        #expect(!whole.isNearItsEnd(try #require(try whole.page(after: nil, limit: 29))))
    }
}
