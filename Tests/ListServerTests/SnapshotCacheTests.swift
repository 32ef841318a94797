import Foundation
import ListServerTesting
import Synchronization
import Testing

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
}
