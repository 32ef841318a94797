import Foundation
import ListModel
import ListModelTesting
import ListServerTesting
import ServerSupport
import Testing

@testable import ListService

/// Presence (docs/LIVE.md, "Presence"): every stream of a list is told how many streams of it
/// are open, after its first events, and again when the count changes, at most once a second.
@Suite struct LivePresenceTests {
    let document: ListDocument = {
        var edits = RandomListEdits(seed: 7)
        return edits.document(sections: 2, rowsPerSection: 3...3)
    }()
    let second: UInt64 = 1_000_000_000

    func viewers(_ client: LiveClient) throws -> [Int] {
        try client.receive()
        return client.presence.map(\.viewers)
    }

    @Test func everyKindOfStreamIsToldTheCountAfterItsFirstEvents() throws {
        let live = try LiveHarness()
        try live.put("a", document)
        let clients = [
            live.subscribe("a", view: .json), live.subscribe("a", view: .html),
            live.subscribe("a", view: .jsonWindow, window: .limit(3)),
        ]
        for (index, client) in clients.enumerated() {
            #expect(try viewers(client) == [index + 1], "\(client.view)")
            #expect(client.presence.first?.afterEvents == 2, "after subscription and reset")
        }
        let resumed = live.subscribe("a", view: .html, since: 1)
        #expect(try viewers(resumed) == [4], "a resumed stream with nothing to catch up is told too")
    }

    @Test func countsChangeWhenStreamsOpenAndClose() throws {
        let live = try LiveHarness()
        try live.put("a", document)
        try live.put("b", document)
        let first = live.subscribe("a", view: .json)
        #expect(try viewers(first) == [1])
        let other = live.subscribe("b", view: .html)
        let joined = live.subscribe("a", view: .html)
        #expect(try viewers(joined) == [2])
        live.hub.publishPresence(now: monotonicNanoseconds() + 2 * second)
        #expect(try viewers(first) == [1, 2])
        #expect(try viewers(joined) == [2], "told 2 already: not told again")
        #expect(try viewers(other) == [1], "another list's count did not change")
        live.hub.detach(subscription: try #require(joined.subscription))
        live.hub.publishPresence(now: monotonicNanoseconds() + 4 * second)
        #expect(try viewers(first) == [1, 2, 1])
        #expect(live.hub.localViewers() == ["a": 1, "b": 1])
    }

    /// A view changed in place opens its new stream before the old one is seen to close: the new
    /// stream is told the count with both, and the count falls back before the next pass. The
    /// pass must still tell the new stream (it once stayed at the higher count).
    @Test func aStreamThatJoinedWhileAnotherLeftIsToldTheCountThatStays() throws {
        let live = try LiveHarness()
        try live.put("a", document)
        let stays = live.subscribe("a", view: .html)
        #expect(try viewers(stays) == [1])
        let old = live.subscribe("a", view: .html)
        #expect(try viewers(old) == [2])
        live.hub.publishPresence(now: monotonicNanoseconds() + 2 * second)
        #expect(try viewers(stays) == [1, 2])
        let new = live.subscribe("a", view: .html)
        #expect(try viewers(new) == [3], "told the count with the old stream still open")
        live.hub.detach(subscription: try #require(old.subscription))
        live.hub.publishPresence(now: monotonicNanoseconds() + 4 * second)
        #expect(try viewers(new) == [3, 2], "the new stream is told the count once the old one left")
        #expect(try viewers(stays) == [1, 2], "the other stream was told 2 already")
    }

    @Test func aStreamIsToldAtMostOnceASecond() throws {
        let live = try LiveHarness()
        try live.put("a", document)
        let watcher = live.subscribe("a", view: .json)
        let start = monotonicNanoseconds()
        _ = live.subscribe("a", view: .json)
        live.hub.publishPresence(now: start + second / 2)
        #expect(try viewers(watcher) == [1], "told 1 less than a second ago: it waits")
        let third = live.subscribe("a", view: .json)
        live.hub.publishPresence(now: start + second * 11 / 10)
        #expect(try viewers(watcher) == [1, 3], "a second later: the newest count, once")
        #expect(try viewers(third) == [3])
        live.hub.detach(subscription: try #require(third.subscription))
        live.hub.publishPresence(now: start + second * 15 / 10)
        live.hub.publishPresence(now: start + second * 19 / 10)
        #expect(try viewers(watcher) == [1, 3])
        live.hub.publishPresence(now: start + second * 22 / 10)
        #expect(try viewers(watcher) == [1, 3, 2])
    }

    @Test func aStreamToldAfterThePassBeganWaitsForTheNextPass() throws {
        let live = try LiveHarness()
        try live.put("a", document)
        let passBegan = monotonicNanoseconds()
        let first = live.subscribe("a", view: .json)
        _ = live.subscribe("a", view: .json)
        live.hub.publishPresence(now: passBegan)
        #expect(try viewers(first) == [1], "told 1 after the pass read its clock: it waits")
        live.hub.publishPresence(now: monotonicNanoseconds() + 2 * second)
        #expect(try viewers(first) == [1, 2])
    }

    @Test func otherInstancesViewersAreAdded() throws {
        let live = try LiveHarness()
        try live.put("a", document)
        let client = live.subscribe("a", view: .html)
        live.hub.setRemoteViewers(["a": 3, "z": 5])
        live.hub.publishPresence(now: monotonicNanoseconds() + 2 * second)
        #expect(try viewers(client) == [1, 4])
        #expect(live.hub.localViewers() == ["a": 1], "only this instance's own go to the others")
        live.hub.setRemoteViewers([:])
        live.hub.publishPresence(now: monotonicNanoseconds() + 4 * second)
        #expect(try viewers(client) == [1, 4, 1])
    }

    @Test func theBookOwesAListUntilEveryStreamWasTold() {
        var book = PresenceBook()
        book.setRemote(["a": 2, "b": 0])
        #expect(book.due(local: ["a": 1]).map(\.total) == [3])
        book.told("a", total: 3, complete: false)
        #expect(book.due(local: ["a": 1]).map(\.total) == [3], "owed: due again")
        book.told("a", total: 3, complete: true)
        #expect(book.due(local: ["a": 1]).isEmpty)
        #expect(book.due(local: ["a": 2]).map(\.total) == [4])
        #expect(book.due(local: [:]).isEmpty)
        #expect(book.announced.isEmpty, "lists without streams are forgotten")
    }
}
