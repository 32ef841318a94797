import Foundation
import ListModel
import ListServerTesting
import ServerSupport
import Synchronization
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// Reads of views not built yet on large lists run off the connections' threads, a bounded
/// number at once (`ServerDefaults.maxConcurrentViewReads`): more wait for a turn.
@Suite("View read turns")
struct ViewReadTurnsTests {
    @Test func coldViewReadsOfALargeListRunAFewAtATime() throws {
        let rows = (0..<ServerDefaults.offThreadRows).map { Row(key: "r\($0)", cells: ["n": .number(Double($0))]) }
        let columns = [Column(key: "n", kind: .number)]
        let list = IndexedList(document: ListDocument(title: "T", columns: columns, sections: [Section(key: "s", rows: rows)]))
        let snapshot = ListSnapshot(id: "big", version: 1, list: list)
        let query = try ListQuery(parameters: [("sort", "n")], columns: columns)
        let running = Atomic<Int>(0)
        let most = Atomic<Int>(0)
        let statuses = Mutex<[HTTPStatus]>([])
        @Sendable func read() {
            let answer = try! ViewRequest.answer(
                snapshot, query, etag: "\"1\"",
                {
                    let now = running.add(1, ordering: .relaxed).newValue
                    _ = most.max(now, ordering: .relaxed)
                    usleep(50_000)  // a large view's sort
                    running.subtract(1, ordering: .relaxed)
                    return 0
                }
            ) { _ in Response(status: .ok) }
            guard let maker = answer.maker else {
                Issue.record("a cold view of a large list is read off the connection's thread")
                return
            }
            let made = maker()
            statuses.withLock { $0.append(made.status) }
        }
        // Six threads of their own (concurrentPerform runs only as many as there are cores).
        let done = DispatchGroup()
        for _ in 0..<6 {
            done.enter()
            Thread.detachNewThread {
                read()
                done.leave()
            }
        }
        done.wait()
        #expect(statuses.withLock { $0 } == Array(repeating: .ok, count: 6))
        #expect(most.load(ordering: .relaxed) <= ServerDefaults.maxConcurrentViewReads)
        #expect(most.load(ordering: .relaxed) >= 1)
    }

    /// A page the view's kept first rows answer is read at once on the connection's thread, with
    /// no turn and answered 304 like a built view's; a page past them is a cold read again.
    @Test func aPageOfTheKeptFirstRowsNeedsNoTurn() throws {
        let rows = (0..<ServerDefaults.offThreadRows).map { Row(key: "r\($0)", cells: ["n": .number(Double($0 % 977))]) }
        let columns = [Column(key: "n", kind: .number)]
        let list = IndexedList(document: ListDocument(title: "T", columns: columns, sections: [Section(key: "s", rows: rows)]))
        let snapshot = ListSnapshot(id: "big", version: 1, list: list)
        let query = try ListQuery(parameters: [("sort_desc", "n")], columns: columns)
        func pageQuery(_ target: String) throws -> ViewPageQuery {
            try ViewPageQuery(try Request(method: .get, target: "/lists/big/rows?sort_desc=n&" + target), query)
        }
        let first = try ViewRequest.page(snapshot, query, try pageQuery("limit=50"))
        let second = try pageQuery("limit=50&after=" + first.page.next!.encoded)
        let kept = try #require(try ViewRequest.keptPage(snapshot, query, second))
        let answer = try ViewRequest.answer(
            snapshot, query, etag: "\"1\"", found: kept, { try ViewRequest.page(snapshot, query, second) }
        ) { _ in Response(status: .ok) }
        #expect(answer.maker == nil && answer.validated?.etag == "\"1\"")
        let view = try list.view(query)
        #expect(try ViewRequest.page(snapshot, query, second) == view.shown(try view.page(after: first.page.next, limit: 50)))
        let past = try pageQuery("limit=50&after=" + view.cursor(atPosition: ServerDefaults.viewHeadRows - 10).encoded)
        #expect(try ViewRequest.keptPage(snapshot, query, past) == nil)
    }
}
