import ListModelTesting
import Testing

@testable import ListModel

@Suite struct PagingWalkTests {
    /// API.md section 4: a walk over all pages while others write returns every row that
    /// stayed in place for the whole walk exactly once.
    @Test func rowsThatStayInPlaceAppearExactlyOnceWhileTheListChanges() {
        var rng = SplitMix64(seed: 2026)
        for round in 0..<300 {
            let start = randomDocument(sections: 5, rowsPerSection: 8, using: &rng)
            var list = IndexedList(document: start)
            let limit = Int.random(in: 1...6, using: &rng)
            var unstable = Set<String>()
            var seen: [String: Int] = [:]
            var cursor: Cursor? = nil
            var pages = 0
            while true {
                let page = list.page(after: cursor, limit: limit)
                for row in list.document.sections(in: page.parts).flatMap(\.rows) { seen[row.key, default: 0] += 1 }
                pages += 1
                guard let next = page.next, pages < 1_000 else { break }
                cursor = next
                // Others write between two page fetches.
                let edited = randomlyEdited(list.document, edits: Int.random(in: 0...4, using: &rng), using: &rng)
                let survivors = Set(flattenedKeys(edited))
                unstable.formUnion(flattenedKeys(list.document).filter { !survivors.contains($0) })
                let stable = rowsThatCrossedNone(from: list.document, to: edited)
                unstable.formUnion(flattenedKeys(list.document).filter { survivors.contains($0) && !stable.contains($0) })
                list = list.updated(to: edited)
            }
            #expect(pages < 1_000)
            for key in flattenedKeys(start) where !unstable.contains(key) {
                #expect(seen[key] == 1, "round \(round): row \(key) seen \(seen[key] ?? 0) times")
            }
        }
    }

    /// Empty sections that stay empty during a walk in which rows are inserted and deleted
    /// are delivered exactly once, even when the rows around them (the cursor's too) go.
    /// (Sections have no order keys: when rows move, an empty section's place among the
    /// keys can jump past the cursor, so it may be skipped or repeated.)
    @Test func emptySectionsThatStayPutAppearExactlyOnceWhileRowsChange() {
        var rng = SplitMix64(seed: 77)
        for round in 0..<300 {
            let start = randomDocument(sections: 8, rowsPerSection: 3, using: &rng)
            var list = IndexedList(document: start)
            let limit = Int.random(in: 1...4, using: &rng)
            var alwaysEmpty = Set(start.sections.filter { $0.rows.isEmpty }.map(\.key))
            var seen: [String: Int] = [:]
            var cursor: Cursor? = nil
            var pages = 0
            while true {
                let page = list.page(after: cursor, limit: limit)
                for part in page.parts where !part.continuesSection {
                    seen[list.document.sections[part.sectionIndex].key, default: 0] += 1
                }
                pages += 1
                guard let next = page.next, pages < 1_000 else { break }
                cursor = next
                let edited = randomlyEdited(
                    list.document, edits: Int.random(in: 0...3, using: &rng),
                    sectionEdits: false, moves: false, using: &rng)
                alwaysEmpty.subtract(edited.sections.filter { !$0.rows.isEmpty }.map(\.key))
                list = list.updated(to: edited)
            }
            for key in alwaysEmpty {
                #expect(seen[key] == 1, "round \(round): empty section \(key) shown \(seen[key] ?? 0) times")
            }
        }
    }

    @Test func aWalkWithoutWritesSeesEveryRowOnce() {
        var rng = SplitMix64(seed: 8)
        let doc = randomDocument(sections: 8, rowsPerSection: 20, using: &rng)
        let list = IndexedList(document: doc)
        var keys: [String] = []
        var cursor: Cursor? = nil
        repeat {
            let page = list.page(after: cursor, limit: 7)
            keys += doc.sections(in: page.parts).flatMap { $0.rows.map(\.key) }
            cursor = page.next.map { try! Cursor(decoding: $0.encoded) }  // through the wire form
        } while cursor != nil
        #expect(keys == flattenedKeys(doc))
    }
}
