import ListServerTesting
import Synchronization
import Testing

@testable import ListServerHTTP
@testable import ListService

@Suite struct HealthCheckTests {
    struct Broken: Error {}

    @Test func probesAtMostOncePerIntervalAndReportsFailures() {
        let calls = Atomic<Int>(0)
        let failing = Atomic<Bool>(false)
        let check = HealthCheck(interval: 3600) {
            calls.add(1, ordering: .relaxed)
            if failing.load(ordering: .relaxed) { throw Broken() }
        }
        #expect(check.failure() == nil)
        failing.store(true, ordering: .relaxed)
        #expect(check.failure() == nil, "within the interval the last outcome stands")
        #expect(calls.load(ordering: .relaxed) == 1)
        let fresh = HealthCheck(interval: 0) { throw Broken() }
        #expect(fresh.failure() != nil)
    }
}
