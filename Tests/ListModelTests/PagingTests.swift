import ListModelTesting
import Testing

@testable import ListModel

/// A document of sections given as (key, row keys).
func makeDocument(_ sections: [(String, [String])]) -> ListDocument {
    ListDocument(
        title: "T",
        sections: sections.map { key, rows in
            Section(key: key, rows: rows.map { Row(key: $0, cells: ["text": .text($0)]) })
        })
}

/// (section key, row keys) of each part of a page.
func describe(_ page: ListPage, in list: IndexedList) -> [String] {
    page.parts.map { part in
        let section = list.document.sections[part.sectionIndex]
        return section.key + ":" + section.rows[part.rows].map(\.key).joined(separator: ",")
    }
}

@Suite struct PagingTests {
    let list = IndexedList(
        document: makeDocument([
            ("e0", []), ("a", ["a1", "a2"]), ("e1", []), ("e2", []), ("b", ["b1", "b2", "b3"]), ("e3", []),
        ]))

    @Test func emptySectionsFallOnThePageWhereTheyAre() {
        let first = list.page(after: nil, limit: 2)
        #expect(describe(first, in: list) == ["e0:", "a:a1,a2"])
        #expect(first.next == list.cursor(atPosition: 1))
        let second = list.page(after: first.next, limit: 2)
        #expect(describe(second, in: list) == ["e1:", "e2:", "b:b1,b2"])
        #expect(second.parts.last?.rows == 0..<2)
        let third = list.page(after: second.next, limit: 2)
        #expect(describe(third, in: list) == ["b:b3", "e3:"])
        #expect(third.parts.first?.rows == 2..<3)
        #expect(third.next == nil)
    }

    @Test func lastPageTakesEveryRemainingSection() {
        let page = list.page(after: list.cursor(atPosition: 1), limit: 50)
        #expect(describe(page, in: list) == ["e1:", "e2:", "b:b1,b2,b3", "e3:"])
        #expect(page.next == nil)
        let all = list.page(after: nil, limit: 500)
        #expect(all.parts.count == 6 && all.next == nil)
        // After the last row: only the trailing empty sections, and no next.
        let end = list.page(after: list.cursor(atPosition: 4), limit: 5)
        #expect(describe(end, in: list) == ["e3:"])
        #expect(end.next == nil)
    }

    @Test func aListWithoutRowsIsOnePageOfSections() {
        let empty = IndexedList(document: makeDocument([("x", []), ("y", [])]))
        let page = empty.page(after: nil, limit: 10)
        #expect(describe(page, in: empty) == ["x:", "y:"])
        #expect(page.next == nil)
        #expect(IndexedList(document: makeDocument([])).page(after: nil, limit: 3) == ListPage(parts: [], next: nil))
    }

    @Test func aLimitBelowOneCountsAsOne() {
        #expect(describe(list.page(after: nil, limit: 0), in: list) == ["e0:", "a:a1"])
    }

    @Test func aCursorWhoseRowWasDeletedStillPositions() {
        let cursor = list.page(after: nil, limit: 3).next!  // after b1
        #expect(cursor.rowKey == "b1")
        let edited = list.updated(
            to: makeDocument([
                ("e0", []), ("a", ["a1", "a2"]), ("e1", []), ("e2", []), ("b", ["b2", "b3"]), ("e3", []),
            ]))
        #expect(describe(edited.page(after: cursor, limit: 5), in: edited) == ["b:b2,b3", "e3:"])
    }

    @Test func emptySectionsBeforeADeletedCursorRowAreNotLostOrRepeated() {
        // e1 and e2 came before b1; b1 is deleted after the page that ended with it.
        let cursor = list.page(after: nil, limit: 3).next!
        #expect(list.window(through: cursor).sections.map(\.key) == ["e0", "a", "e1", "e2", "b"])
        let edited = list.updated(
            to: makeDocument([
                ("e0", []), ("a", ["a1", "a2"]), ("e1", []), ("e2", []), ("b", ["b2", "b3"]), ("e3", []),
            ]))
        #expect(describe(edited.page(after: cursor, limit: 5), in: edited) == ["b:b2,b3", "e3:"])
        #expect(
            edited.window(through: cursor).sections.map { $0.key + ":" + $0.rows.map(\.key).joined() }
                == ["e0:", "a:a1a2", "e1:", "e2:"])
        // A cursor without a section key cannot tell: the empty sections come again.
        let bare = Cursor(orderKey: cursor.orderKey, rowKey: cursor.rowKey)
        #expect(describe(edited.page(after: bare, limit: 5), in: edited) == ["e1:", "e2:", "b:b2,b3", "e3:"])
        // The same at the very start of the list.
        let start = IndexedList(document: makeDocument([("e", []), ("a", ["a1"]), ("b", ["b1"])]))
        let first = start.page(after: nil, limit: 1)
        #expect(describe(first, in: start) == ["e:", "a:a1"])
        let gone = start.updated(to: makeDocument([("e", []), ("a", []), ("b", ["b1"])]))
        // Section a was shown with a1: it is not shown again now that it is empty.
        #expect(describe(gone.page(after: first.next, limit: 1), in: gone) == ["b:b1"])
        #expect(gone.window(through: first.next!).sections.map(\.key) == ["e", "a"])
    }

    @Test func aSectionWhoseFirstRowWasTheDeletedCursorRowContinues() {
        let first = list.page(after: nil, limit: 3)  // e0, a1, a2, e1, e2, b1
        #expect(first.parts.last?.continuesSection == false)
        let edited = list.updated(
            to: makeDocument([
                ("e0", []), ("a", ["a1", "a2"]), ("e1", []), ("e2", []), ("b", ["b2", "b3"]), ("e3", []),
            ]))
        let next = edited.page(after: first.next, limit: 1)
        #expect(describe(next, in: edited) == ["b:b2"])
        #expect(next.parts[0].rows == 0..<1 && next.parts[0].continuesSection)
        // Without deletions, continuing parts are those not starting at row 0.
        let plain = list.page(after: list.cursor(atPosition: 2), limit: 1)
        #expect(plain.parts.map(\.continuesSection) == [true])
        #expect(list.page(after: nil, limit: 9).parts.allSatisfy { !$0.continuesSection })
    }

    @Test func staticWalksCoverEverySectionAndRowOnceInOrder() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<300 {
            let doc = randomDocument(sections: 6, rowsPerSection: 4, using: &rng)
            let list = IndexedList(document: doc)
            let limit = Int.random(in: 1...5, using: &rng)
            var merged: [ListPage.Part] = []
            var cursor: Cursor? = nil
            var pages = 0
            repeat {
                let page = list.page(after: cursor, limit: limit)
                let rows = page.parts.reduce(0) { $0 + $1.rows.count }
                #expect(rows <= limit)
                if page.next != nil { #expect(rows == limit) }
                for part in page.parts {
                    if let last = merged.last, last.sectionIndex == part.sectionIndex {
                        #expect(last.rows.upperBound == part.rows.lowerBound && !part.rows.isEmpty)
                        merged[merged.count - 1].rows = last.rows.lowerBound..<part.rows.upperBound
                    } else {
                        merged.append(part)
                    }
                }
                cursor = page.next
                pages += 1
            } while cursor != nil && pages < 100
            #expect(merged == doc.sections.indices.map { ListPage.Part(sectionIndex: $0, rows: doc.sections[$0].rows.indices) })
            #expect(pages == max(1, (doc.rowCount + limit - 1) / limit))
        }
    }

    @Test func windowsArePrefixesWithTheSameEmptySectionRule() {
        let window = list.window(limit: 2)
        #expect(window.sections.map(\.key) == ["e0", "a"])
        #expect(window.title == "T" && window.columns == list.document.columns)
        let through = list.window(through: list.cursor(atPosition: 3))
        #expect(
            through.sections.map { $0.key + ":" + $0.rows.map(\.key).joined(separator: ",") }
                == ["e0:", "a:a1,a2", "e1:", "e2:", "b:b1,b2"])
        #expect(list.window(limit: 5) == list.document)
        #expect(list.window(limit: 500) == list.document)
        #expect(list.window(limit: 0).sections.isEmpty)
        #expect(list.windowEnd(limit: 2) == list.cursor(atPosition: 1))
        #expect(list.windowEnd(limit: 0) == nil)
        #expect(list.windowEnd(limit: 99) == list.cursor(atPosition: 4))
        #expect(list.window(through: list.windowEnd(limit: 2)!) == list.window(limit: 2))
        #expect(list.windowRowCount(through: list.cursor(atPosition: 3)) == 4)
    }

    @Test func aWindowEqualsThePagesUpToItsCursor() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<100 {
            let list = IndexedList(document: randomDocument(sections: 5, rowsPerSection: 4, using: &rng))
            var cursor: Cursor? = nil
            var sections: [Section] = []
            repeat {
                let page = list.page(after: cursor, limit: 3)
                for section in list.document.sections(in: page.parts) {
                    if sections.last?.key == section.key {
                        sections[sections.count - 1].rows += section.rows
                    } else {
                        sections.append(section)
                    }
                }
                if let end = list.lastCursor(of: page) {
                    #expect(list.window(through: end).sections == sections || page.next == nil)
                }
                cursor = page.next
            } while cursor != nil
            #expect(sections == list.document.sections)
        }
    }

    @Test func lastCursorOfAPage() {
        let first = list.page(after: nil, limit: 2)
        #expect(list.lastCursor(of: first) == first.next)
        let rest = list.page(after: first.next, limit: 10)
        #expect(rest.next == nil)
        #expect(list.lastCursor(of: rest) == list.cursor(atPosition: 4))
        #expect(list.lastCursor(of: ListPage(parts: [], next: nil)) == nil)
    }
}
