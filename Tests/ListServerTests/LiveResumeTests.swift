import HTMLRenderer
import ListModel
import ListModelTesting
import ListServerTesting
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// `since` / `Last-Event-ID` at every boundary: equal, resumable, too old, in the future.
@Suite("Live hub: resuming from a version")
struct LiveResumeTests {
    /// A list written `writes` times after its creation, with one subscriber keeping its channel open.
    func prepared(writes: Int, limits: LiveHub.Limits = LiveHub.Limits(), changeLogLimit: Int = 1_000)
        throws -> (LiveHarness, RandomListEdits, keeper: LiveClient)
    {
        let harness = try LiveHarness(limits: limits, changeLogLimit: changeLogLimit)
        var edits = RandomListEdits(seed: 3)
        try harness.put("l", edits.document(sections: 3, rowsPerSection: 1...5))
        let keeper = harness.subscribe("l", view: .json)
        for _ in 0..<writes { try harness.edit("l", &edits) }
        return (harness, edits, keeper)
    }

    func names(_ client: LiveClient) -> [String?] { client.events.map(\.name) }

    func htmlBase(_ harness: LiveHarness, at version: Int, window: LiveWindow) throws -> JSONValue {
        LiveView(snapshot: try #require(harness.snapshot("l", at: version)), window: window, renderer: harness.hub.renderer).json
    }

    @Test func sinceTheCurrentVersionSendsNothingButTheSubscription() throws {
        let (harness, _, _) = try prepared(writes: 4)
        let json = harness.subscribe("l", view: .json, since: 5, base: harness.snapshot("l", at: 5)!.document.json)
        let window = LiveWindow.through(harness.snapshot("l", at: 5)!.list.windowEnd(limit: 3)!)
        let html = harness.subscribe(
            "l", view: .html, window: .until(window.cursor!), since: 5,
            base: try htmlBase(harness, at: 5, window: window))
        for client in [json, html] {
            try harness.pump(client)
            #expect(names(client) == ["subscription"])
            #expect(client.subscription != nil)
        }
    }

    @Test func jsonResumesFromTheStoreLogWithOnePatchPerWrite() throws {
        let (harness, _, _) = try prepared(writes: 6)
        let client = harness.subscribe("l", view: .json, since: 2, base: harness.snapshot("l", at: 2)!.document.json)
        try harness.pump(client)
        #expect(names(client) == ["subscription", "patch", "patch", "patch", "patch", "patch"])
        #expect(client.events.compactMap(\.id) == [3, 4, 5, 6, 7])
    }

    @Test func jsonResumesEvenWhenNoOtherSubscriberKeptTheListWatched() throws {
        let (harness, _, keeper) = try prepared(writes: 3)
        keeper.stream.terminated()
        #expect(harness.hub.subscriberCount == 0)
        let client = harness.subscribe("l", view: .json, since: 1, base: harness.snapshot("l", at: 1)!.document.json)
        try harness.pump(client)
        #expect(names(client) == ["subscription", "patch", "patch", "patch"])
    }

    @Test func aClientFromBeforeTheListGetsAResetThoughTheLogReachesBack() throws {
        // The log holds the creation (a patch replacing "") and every write since.
        let (harness, edits, _) = try prepared(writes: 2)
        let fromNothing = harness.subscribe("l", view: .json, since: 0)
        try harness.pump(fromNothing)
        #expect(names(fromNothing) == ["subscription", "reset"])
        #expect(fromNothing.version == 3)

        // Deleted and created again: versions go on (4 is the new list's first); a client at 3
        // saw the old list, not this one.
        var again = edits
        try harness.registry.delete(id: "l")
        try harness.put("l", again.document(sections: 2, rowsPerSection: 1...3))
        let old = harness.subscribe("l", view: .json, since: 3, base: fromNothing.doc)
        try harness.pump(old)
        #expect(names(old) == ["subscription", "reset"])
        #expect(old.doc == harness.registry.snapshot(id: "l")?.document.json)
    }

    @Test func jsonFallsBackToAResetBeyondTheLogOrInTheFuture() throws {
        // The channel keeps versions 7 and 8; the store's log holds the changes to 6…9.
        let (harness, _, _) = try prepared(writes: 8, limits: LiveHub.Limits(recentVersions: 2), changeLogLimit: 4)
        for since in [0, 1, 4, 10, 1_000] {
            let client = harness.subscribe("l", view: .json, since: since)
            try harness.pump(client)
            #expect(names(client) == ["subscription", "reset"], "since \(since)")
            #expect(client.version == 9)
        }
        let oldestKept = harness.subscribe("l", view: .json, since: 5, base: harness.snapshot("l", at: 5)!.document.json)
        try harness.pump(oldestKept)
        #expect(oldestKept.events.compactMap(\.id) == [6, 7, 8, 9])
    }

    /// A version the store's log no longer reaches back to, but the channel still keeps: the
    /// channel's own patches resume the client.
    @Test func jsonResumesFromTheChannelsVersionsBeyondTheLog() throws {
        let (harness, _, _) = try prepared(writes: 8, changeLogLimit: 4)
        let client = harness.subscribe("l", view: .json, since: 2, base: harness.snapshot("l", at: 2)!.document.json)
        try harness.pump(client)
        #expect(client.events.compactMap(\.id) == Array(3...9))
        #expect(client.doc == harness.snapshot("l", at: 9)!.document.json)
    }

    @Test func aClientOfADeletedListResumingIntoARecreatedOneGetsTheNewDocument() throws {
        let (harness, _, keeper) = try prepared(writes: 2)
        var edits = RandomListEdits(seed: 77)
        let old = try #require(harness.registry.snapshot(id: "l"))
        let window = LiveWindow.through(try #require(old.list.windowEnd(limit: 3)))
        let oldView = try htmlBase(harness, at: old.version, window: window)
        _ = try keeper.receive()
        try harness.registry.delete(id: "l")
        try harness.put("l", edits.document(sections: 2, rowsPerSection: 1...3))
        for _ in 0..<2 { try harness.edit("l", &edits) }
        let current = try #require(harness.registry.snapshot(id: "l"))
        let json = harness.subscribe("l", view: .json, since: old.version, base: old.document.json)
        let html = harness.subscribe("l", view: .html, window: .until(window.cursor!), since: old.version, base: oldView)
        for client in [json, html] {
            try harness.pump(client)
            #expect(client.version == current.version)
            #expect(
                client.doc == (try harness.expectedDocument(for: client, at: current.version)),
                "\(client.view): the old list's version \(old.version) is not the new list's")
            #expect(client.events.contains { $0.name == "reset" })
        }
    }

    @Test func htmlResumesFromRecentVersionsWithOnePatch() throws {
        let (harness, _, _) = try prepared(writes: 6, limits: LiveHub.Limits(recentVersions: 3))
        let start = try #require(harness.snapshot("l", at: 5)).list
        let window = LiveWindow.through(try #require(start.windowEnd(limit: 4)))
        let client = harness.subscribe(
            "l", view: .html, window: .until(window.cursor!), since: 5,
            base: try htmlBase(harness, at: 5, window: window))
        try harness.pump(client)
        #expect(names(client) == ["subscription", "patch"])
        #expect(client.version == 7)
        // A `limit` window is taken from the version the client holds.
        let limited = harness.subscribe(
            "l", view: .html, window: .limit(2), since: 4,
            base: try htmlBase(harness, at: 4, window: LiveWindow(limit: 2, in: harness.snapshot("l", at: 4)!.list)))
        try harness.pump(limited)
        #expect(names(limited) == ["subscription", "patch"])
    }

    @Test func htmlFallsBackToAResetBeyondRecentVersionsOrInTheFuture() throws {
        let (harness, _, _) = try prepared(writes: 6, limits: LiveHub.Limits(recentVersions: 3))
        for since in [0, 1, 3, 8, 99] {
            let client = harness.subscribe("l", view: .html, window: .limit(3), since: since)
            try harness.pump(client)
            #expect(names(client) == ["subscription", "reset"], "since \(since)")
            #expect(client.version == 7)
        }
    }
}

extension LiveWindow {
    var cursor: Cursor? {
        if case .through(let cursor) = self { return cursor }
        return nil
    }
}
