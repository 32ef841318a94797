import ListModel
import ListModelTesting
import ListServerTesting
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// A subscriber that does not read: it stops getting patches, gets a `reset` once drained, and
/// is cut off when it stays behind; the hub's counters follow.
@Suite("Live hub: slow subscribers")
struct LiveStaleTests {
    /// The hub's counters once every write so far is published.
    func counts(_ hub: LiveHub) -> (subscribers: Int, stale: Int) {
        hub.publishReceived()
        return hub.directory.withLock { ($0.subscriberCount, $0.staleCount) }
    }

    @Test func aSlowSubscriberIsSkippedThenResetOnceDrained() throws {
        let harness = try LiveHarness(limits: LiveHub.Limits(maxBufferedBytes: 4_000, staleTimeoutSeconds: 3_600))
        var edits = RandomListEdits(seed: 9)
        try harness.put("l", edits.document(sections: 3, rowsPerSection: 2...4))
        let slow = harness.subscribe("l", view: .html)
        let fast = harness.subscribe("l", view: .json)
        for _ in 0..<40 {
            try harness.edit("l", &edits)
            try harness.pump(fast)
        }
        #expect(counts(harness.hub) == (2, 1))
        let buffered = slow.stream.bufferedByteCount
        try harness.edit("l", &edits)
        #expect(slow.stream.bufferedByteCount == buffered, "no more bytes for a stale subscriber")
        harness.hub.sweepStaleSubscribers()
        #expect(slow.stream.bufferedByteCount == buffered, "no reset before it has drained")
        try harness.pump(slow)
        harness.hub.sweepStaleSubscribers()
        #expect(counts(harness.hub) == (2, 0))
        try harness.pump(slow)
        #expect(slow.events.last?.name == "reset")
        try harness.edit("l", &edits)
        try harness.pump(slow)
        try harness.pump(fast)
        #expect(slow.events.last?.name == "patch")
        #expect(slow.version == harness.registry.snapshot(id: "l")!.version)
        #expect(fast.version == slow.version)
    }

    @Test func aSubscriberStaleForTooLongIsDisconnectedAndForgotten() throws {
        let harness = try LiveHarness(limits: LiveHub.Limits(maxBufferedBytes: 2_000, staleTimeoutSeconds: 0))
        var edits = RandomListEdits(seed: 10)
        try harness.put("l", edits.document(sections: 3, rowsPerSection: 2...4))
        let slow = harness.subscribe("l", view: .json)
        for _ in 0..<40 { try harness.edit("l", &edits) }
        #expect(counts(harness.hub) == (1, 1))
        harness.hub.sweepStaleSubscribers()
        #expect(!slow.stream.isOpen)
        harness.hub.sweepStaleSubscribers()
        slow.stream.terminated()
        #expect(counts(harness.hub) == (0, 0))
        #expect(harness.hub.directory.withLock { Array($0.channels.values) }.allSatisfy { $0.state.withLock { $0.subscribers.isEmpty } })
    }

    @Test func aStaleSubscriberOfADeletedListIsForgotten() throws {
        let harness = try LiveHarness(limits: LiveHub.Limits(maxBufferedBytes: 2_000, staleTimeoutSeconds: 3_600))
        var edits = RandomListEdits(seed: 12)
        try harness.put("l", edits.document(sections: 3, rowsPerSection: 2...4))
        let slow = harness.subscribe("l", view: .json)
        for _ in 0..<40 { try harness.edit("l", &edits) }
        #expect(counts(harness.hub) == (1, 1))
        try harness.registry.delete(id: "l")
        #expect(counts(harness.hub) == (0, 0))
        _ = try slow.receive()
        #expect(slow.deleted, "the end of the list reaches even a stale subscriber")
    }
}
