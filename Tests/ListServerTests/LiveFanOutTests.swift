import ListModel
import ListModelTesting
import ListServerTesting
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// A fan-out large enough to be shared with the hub's fan-out threads (`LiveHub.sharedFanOut`):
/// every reading subscriber still gets every event once and in order, and one that does not read
/// is skipped and marked stale, whichever thread sent to it.
@Suite("Live hub: large fan-outs")
struct LiveFanOutTests {
    @Test func everySubscriberOfASharedFanOutGetsEveryEventAndASlowOneIsSkipped() throws {
        let harness = try LiveHarness(
            limits: LiveHub.Limits(maxSubscribers: 2_000, maxBufferedBytes: 2_000, staleTimeoutSeconds: 3_600, fanOutThreads: 2))
        var edits = RandomListEdits(seed: 27)
        try harness.put("l", edits.document(sections: 2, rowsPerSection: 2...3))
        let readers = (0..<(LiveHub.sharedFanOut + 100)).map { index in
            harness.subscribe("l", view: index % 2 == 0 ? .html : .json)
        }
        for reader in readers { _ = try reader.receive() }  // their resets
        let slow = harness.subscribe("l", view: .html)  // never reads: its reset fills its buffer
        for _ in 0..<5 {
            try harness.edit("l", &edits, count: 1)
            harness.hub.publishReceived()
            for reader in readers { _ = try reader.receive() }
        }
        let current = try #require(harness.registry.snapshot(id: "l"))
        let expectedHTML = try harness.expectedDocument(for: readers[0], at: current.version)
        let expectedJSON = try harness.expectedDocument(for: readers[1], at: current.version)
        for reader in readers {
            #expect(reader.version == current.version)
            #expect(reader.events.filter { $0.name == "patch" }.count == 5, "one patch per write")
            #expect(reader.doc == (reader.view == .html ? expectedHTML : expectedJSON))
        }
        #expect(harness.hub.directory.withLock { ($0.subscriberCount, $0.staleCount) } == (readers.count + 1, 1))
        let bufferedBeforeAnotherWrite = slow.stream.bufferedByteCount
        try harness.edit("l", &edits, count: 1)
        harness.hub.publishReceived()
        #expect(slow.stream.bufferedByteCount == bufferedBeforeAnotherWrite, "nothing more for the stale subscriber")
    }
}
