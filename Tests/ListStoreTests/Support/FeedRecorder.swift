import Foundation
import Synchronization

@testable import ListStore

/// Collects what a store's change feed reports, for tests to wait on.
final class FeedRecorder: Sendable {
    private let events = Mutex<[StoreFeedEvent]>([])

    func receive(_ event: StoreFeedEvent) { events.withLock { $0.append(event) } }

    var all: [StoreFeedEvent] { events.withLock { $0 } }

    var resyncs: Int { all.filter { $0 == .resync }.count }

    /// The versions reported for `id`, in the order received.
    func versions(of id: String) -> [Int] {
        all.compactMap { if case .committed(id, let version) = $0 { version } else { nil } }
    }

    /// Waits (up to 30 s, so a broken feed fails instead of hanging) until `condition` holds.
    @discardableResult
    func wait(until condition: (FeedRecorder) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition(self)
    }
}
