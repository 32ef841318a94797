import ListModel
import ListModelTesting
import ListServerTesting
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// A new subscriber's first events are made under no lock: writes that land before it is
/// registered must reach it all the same, in order, exactly once.
@Suite("Live hub: writes landing while a subscriber's first events are made")
struct LiveCatchUpTests {
    func names(_ client: LiveClient) -> [String?] { client.events.map(\.name) }
    func ids(_ client: LiveClient) -> [Int] { client.events.compactMap(\.id) }

    /// The edits of the test's list, shared by the test and its hooks.
    final class EditsBox: @unchecked Sendable {
        var edits: RandomListEdits
        init(_ edits: RandomListEdits) { self.edits = edits }
    }

    /// A list at version 1 and the generator of its edits.
    func prepared(recentVersions: Int = 32) throws -> (LiveHarness, EditsBox) {
        let harness = try LiveHarness(limits: LiveHub.Limits(recentVersions: recentVersions))
        var edits = RandomListEdits(seed: 31)
        try harness.put("l", edits.document(sections: 3, rowsPerSection: 2...5))
        return (harness, EditsBox(edits))
    }

    /// A hook that writes the list `count` times, the first time it runs.
    func writes(_ count: Int, _ harness: LiveHarness, _ box: EditsBox) -> () -> Void {
        var done = false
        return {
            guard !done else { return }
            done = true
            for _ in 0..<count { _ = try? harness.edit("l", &box.edits) }
        }
    }

    @Test func aJSONResetIsFollowedByThePatchesOfTheWritesMeanwhile() throws {
        let (harness, box) = try prepared()
        let client = harness.subscribe("l", view: .json, beforeRegistering: writes(3, harness, box))
        try harness.pump(client)
        #expect(names(client) == ["subscription", "reset", "patch", "patch", "patch"])
        #expect(ids(client) == [1, 2, 3, 4])
        try harness.edit("l", &box.edits)
        try harness.pump(client)
        #expect(client.version == 5)
    }

    @Test func anHTMLResetIsFollowedByOnePatchToTheCurrentVersion() throws {
        let (harness, box) = try prepared()
        let client = harness.subscribe("l", view: .html, window: .limit(4), beforeRegistering: writes(3, harness, box))
        try harness.pump(client)
        #expect(names(client) == ["subscription", "reset", "patch"])
        #expect(ids(client) == [1, 4])
        let keeper = harness.subscribe("l", view: .json)
        try harness.edit("l", &box.edits)
        try harness.pump(client)
        try harness.pump(keeper)
        #expect(client.version == 5)
    }

    @Test func resumesAreCaughtUpToo() throws {
        let (harness, box) = try prepared()
        let keeper = harness.subscribe("l", view: .json)
        for _ in 0..<3 { try harness.edit("l", &box.edits) }
        let json = harness.subscribe(
            "l", view: .json, since: 2, base: harness.snapshot("l", at: 2)!.document.json,
            beforeRegistering: writes(2, harness, box))
        try harness.pump(json)
        #expect(names(json) == ["subscription", "patch", "patch", "patch", "patch"])
        #expect(ids(json) == [3, 4, 5, 6])
        let window = LiveWindow.through(harness.snapshot("l", at: 3)!.list.windowEnd(limit: 3)!)
        let base = LiveView(snapshot: harness.snapshot("l", at: 3)!, window: window, renderer: harness.hub.renderer).json
        let html = harness.subscribe(
            "l", view: .html, window: .until(window.cursor!), since: 3, base: base,
            beforeRegistering: writes(1, harness, box))
        try harness.pump(html)
        #expect(names(html) == ["subscription", "patch", "patch"])
        #expect(ids(html) == [6, 7])
        try harness.pump(keeper)
    }

    @Test func moreWritesThanTheChannelKeepsMakeTheFirstEventsAgain() throws {
        let (harness, box) = try prepared(recentVersions: 2)
        for view in [Subscriber.View.json, .html] {
            let client = harness.subscribe("l", view: view, beforeRegistering: writes(4, harness, box))
            try harness.pump(client)
            #expect(names(client).last == "reset")
            #expect(client.version == harness.registry.snapshot(id: "l")?.version)
        }
    }

    @Test func aListDeletedMeanwhileEndsTheStream() throws {
        let (harness, _) = try prepared()
        var done = false
        let client = harness.subscribe(
            "l", view: .json,
            beforeRegistering: {
                if !done {
                    done = true
                    _ = try? harness.registry.delete(id: "l")
                }
            })
        _ = try client.receive()
        #expect(client.deleted)
        #expect(!client.stream.isOpen)
        #expect(harness.hub.subscriberCount == 0)
    }

    @Test func aSweeperResetMadeBeforeAWriteIsMadeAgainForTheNewVersion() throws {
        let harness = try LiveHarness(limits: LiveHub.Limits(maxBufferedBytes: 2_000, staleTimeoutSeconds: 3_600))
        var edits = RandomListEdits(seed: 32)
        try harness.put("l", edits.document(sections: 3, rowsPerSection: 2...4))
        let slow = harness.subscribe("l", view: .html)
        for _ in 0..<30 { try harness.edit("l", &edits) }
        harness.hub.publishReceived()
        #expect(harness.hub.directory.withLock { $0.staleCount } == 1)
        try harness.pump(slow)
        harness.hub.sweepStaleSubscribers { _ = try? harness.edit("l", &edits) }
        try harness.pump(slow)
        #expect(slow.events.last?.name == "reset")
        #expect(slow.version == harness.registry.snapshot(id: "l")?.version)
        try harness.edit("l", &edits)
        try harness.pump(slow)
        #expect(slow.version == harness.registry.snapshot(id: "l")?.version)
        #expect(harness.hub.directory.withLock { $0.staleCount } == 0)
    }
}
