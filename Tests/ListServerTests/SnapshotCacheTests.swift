import Foundation
import ListServerTesting
import Synchronization
import Testing

@testable import ListModel
@testable import ListServerHTTP
@testable import ListService

@Suite("Snapshot cache")
struct SnapshotCacheTests {
    @Test func readersArrivingTogetherShareOneSerialization() {
        let cache = SnapshotCache()
        let made = Atomic<Int>(0)
        let results = Mutex<[[UInt8]]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let bytes = cache.documentJSON {
                made.add(1, ordering: .relaxed)
                usleep(20_000)  // a big document takes a while to serialize
                return Array("{\"title\":\"T\"}".utf8)
            }
            results.withLock { $0.append(bytes) }
        }
        #expect(made.load(ordering: .relaxed) == 1)
        #expect(results.withLock { $0.count } == 16)
        #expect(results.withLock { $0.allSatisfy { $0 == Array("{\"title\":\"T\"}".utf8) } })
    }

    /// A small list's view by a query (the cache keeps whatever `make` returns).
    static func view() throws -> (ListQuery, ListView) {
        let columns = [Column(key: "n", kind: .number)]
        let rows = (0..<5).map { Row(key: "r\($0)", cells: ["n": .number(Double(5 - $0))]) }
        let list = IndexedList(document: ListDocument(title: "T", columns: columns, sections: [Section(key: "s", rows: rows)]))
        let query = try ListQuery(parameters: [("sort", "n")], columns: columns)
        return (query, try list.view(query))
    }

    @Test func readersOfAViewBeingBuiltWaitForItInsteadOfBuildingTheirOwn() throws {
        let cache = SnapshotCache()
        let (query, view) = try Self.view()
        let made = Atomic<Int>(0)
        let counts = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let got = cache.view(query) {
                made.add(1, ordering: .relaxed)
                usleep(50_000)  // a large list's view takes a while to sort
                return view
            }
            counts.withLock { $0.append(got.rowCount) }
        }
        #expect(made.load(ordering: .relaxed) == 1)
        #expect(counts.withLock { $0 } == Array(repeating: 5, count: 8))
        #expect(cache.hasView(query))
    }

    @Test func aBuiltViewIsFoundOnlyWhenSomeoneBuildsIt() throws {
        let cache = SnapshotCache()
        let (query, view) = try Self.view()
        #expect(cache.builtView(query) == nil)  // nobody builds it: the caller makes its own
        let started = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = cache.view(query) {
                started.signal()
                usleep(50_000)
                return view
            }
        }
        started.wait()
        #expect(cache.builtView(query)?.rowCount == 5)  // waited for the build
    }

    @Test func aFailedBuildLeavesTheNextReaderToBuild() throws {
        struct Refused: Error {}
        let cache = SnapshotCache()
        let (query, view) = try Self.view()
        #expect(throws: Refused.self) { try cache.view(query) { throw Refused() } }
        #expect(!cache.hasView(query))
        #expect(cache.view(query) { view }.rowCount == 5)
    }

    /// A view's first rows are kept until the view is built; a head holding the whole view is kept as the view.
    @Test func aViewsHeadIsKeptUntilItsViewIsBuilt() throws {
        let (query, view) = try Self.view()
        let cache = SnapshotCache()
        cache.keep(try view.list.viewHead(query, rows: 2), for: query)
        #expect(cache.head(query)?.view.rowCount == 2)
        #expect(!cache.hasView(query))
        _ = cache.view(query) { view }
        #expect(cache.head(query) == nil)

        let other = SnapshotCache()
        other.keep(try view.list.viewHead(query, rows: 5), for: query)
        #expect(other.head(query) == nil)
        #expect(other.hasView(query))
        #expect(
            other.view(query) {
                Issue.record("built again")
                return view
            }.sections == view.sections)
    }
}
