import Foundation
import HTMLRenderer
import ListModel
import ListServerTesting
import Synchronization
import Testing

@testable import ListServerHTTP
@testable import ListService

@Suite("Row markup cache")
struct RowMarkupCacheTests {
    let renderer = HTMLRenderer()

    func document(prefix: String, rows: Int) -> ListDocument {
        ListDocument(
            title: "T",
            sections: [
                Section(key: "s", rows: (0..<rows).map { Row(key: "\(prefix)\($0)", cells: ["text": .text("<\(prefix) \($0)>")]) })
            ])
    }

    func render(_ document: ListDocument, into cache: RowMarkupCache) -> [String] {
        document.sections.flatMap(\.rows).map { cache.html(for: $0, version: nil, in: document, renderer: renderer) }
    }

    @Test func deletedRowsAreForgottenOnceTheyOutnumberTheLiveOnes() {
        let cache = RowMarkupCache()
        let old = document(prefix: "old-", rows: 2_000)
        _ = render(old, into: cache)
        #expect(cache.count == 2_000)
        let new = document(prefix: "new-", rows: 100)
        cache.forgetDeletedRows(keepingRowsOf: IndexedList(document: new))
        #expect(cache.count == 0)
        let html = render(new, into: cache)
        #expect(cache.count == 100)
        #expect(html == new.sections[0].rows.map { String(decoding: renderer.row($0, in: new), as: UTF8.self) })
    }

    @Test func rowsStillInTheListAndSmallCachesAreKept() {
        let cache = RowMarkupCache()
        let whole = document(prefix: "r", rows: 3_000)
        _ = render(whole, into: cache)
        // Half the rows deleted: as many cached as live, below twice the live rows, so no scan.
        var half = whole
        half.sections[0].rows.removeLast(1_500)
        cache.forgetDeletedRows(keepingRowsOf: IndexedList(document: half))
        #expect(cache.count == 3_000)
        // Down to 1,000 rows: the 2,000 deleted ones go, the 1,000 left stay cached.
        var third = whole
        third.sections[0].rows.removeLast(2_000)
        cache.forgetDeletedRows(keepingRowsOf: IndexedList(document: third))
        #expect(cache.count == 1_000)
        // A small list never triggers a scan below 1,024 cached rows.
        let small = RowMarkupCache()
        _ = render(document(prefix: "x", rows: 1_000), into: small)
        small.forgetDeletedRows(keepingRowsOf: IndexedList(document: document(prefix: "y", rows: 1)))
        #expect(small.count == 1_000)
    }

    /// Resets render outside the hub's locks, so one channel's cache is used by several
    /// threads at once, across versions whose columns differ.
    @Test func threadsSharingTheCacheAcrossColumnChangesGetEachRowsOwnMarkup() {
        let cache = RowMarkupCache()
        let plain = document(prefix: "r", rows: 500)
        var retitled = plain
        retitled.columns = [Column(key: "text", title: "Other"), Column(key: "extra")]
        let documents = [plain, retitled]
        let expected = documents.map { document in
            document.sections[0].rows.map { String(decoding: renderer.row($0, in: document), as: UTF8.self) }
        }
        let mismatches = Atomic<Int>(0)
        let group = DispatchGroup()
        for thread in 0..<4 {
            group.enter()
            Thread { [renderer] in
                for round in 0..<6 {
                    let which = (thread + round) % 2
                    let document = documents[which]
                    for (index, row) in document.sections[0].rows.enumerated()
                    where cache.html(for: row, version: nil, in: document, renderer: renderer) != expected[which][index] {
                        mismatches.add(1, ordering: .relaxed)
                    }
                }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(mismatches.load(ordering: .relaxed) == 0)
        #expect(expected[0] != expected[1], "the two versions render differently")
    }
}
