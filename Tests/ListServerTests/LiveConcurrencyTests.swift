import Foundation
import ListModel
import ListModelTesting
import ListServerTesting
import Synchronization
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// Writers, subscribers, `…/more`, disconnects and deletes on several threads at once: every
/// stream must still be an ordered sequence that takes its client to the current version.
@Suite("Live hub: concurrent writes and subscriptions")
struct LiveConcurrencyTests {
    @Test(arguments: [1, 2, 3])
    func subscribersThatJoinDuringWritesMissNothing(seed: UInt64) throws {
        let harness = try LiveHarness(limits: LiveHub.Limits(maxBufferedBytes: 1 << 30))
        var start = RandomListEdits(seed: seed)
        try harness.put("l", start.document(sections: 4, rowsPerSection: 0...5))
        let clients = Mutex<[LiveClient]>([])
        let writesDone = Atomic<Bool>(false)
        let joined = Atomic<Int>(0)
        runConcurrently([
            {
                // The generator that made the document, so that new keys stay unique.
                var edits = RandomListEdits(seed: seed)
                _ = edits.document(sections: 4, rowsPerSection: 0...5)
                for _ in 0..<150 { try harness.edit("l", &edits, count: Int.random(in: 1...3, using: &edits.random)) }
                // On a busy machine the subscribing thread may have had little time: keep writing
                // until some subscribers have joined during the writes.
                for _ in 0..<5_000 where joined.load(ordering: .acquiring) < 4 {
                    try harness.edit("l", &edits, count: 1)
                }
                writesDone.store(true, ordering: .releasing)
            },
            {
                var random = SplitMix64(seed: seed &+ 200)
                var mine: [LiveClient] = []
                while !writesDone.load(ordering: .acquiring) && mine.count < 40 {
                    let view: Subscriber.View = Bool.random(using: &random) ? .json : .html
                    let client = harness.subscribe("l", view: view, window: .limit(Int.random(in: 0...8, using: &random)))
                    mine.append(client)
                    joined.add(1, ordering: .releasing)
                    if let html = mine.filter({ $0.view == .html }).randomElement(using: &random),
                        let subscription = html.collect()
                    {
                        _ = try harness.hub.extend(subscription: subscription, listID: "l", by: 2)
                    }
                }
                clients.withLock { $0 += mine }
            },
            {
                // Subscribers that come and go, so channels close and reopen during writes.
                var random = SplitMix64(seed: seed &+ 300)
                for _ in 0..<100 where !writesDone.load(ordering: .acquiring) {
                    let client = harness.subscribe("l", view: Bool.random(using: &random) ? .json : .html)
                    client.collect()
                    client.stream.terminated()
                }
            },
        ])
        let current = try #require(harness.registry.snapshot(id: "l"))
        let all = clients.withLock { $0 }
        #expect(all.count > 3)
        for client in all {
            try harness.pump(client)
            #expect(client.version == current.version, "\(client.view) client reached the current version")
        }
        #expect(harness.hub.subscriberCount == all.count)
    }

    /// A hub that gets a list's new incarnation before the old one's deletion (the registry
    /// hands the deletion on before a new list can take the id, but the hub does not rely on it)
    /// keeps the new list's streams going.
    @Test func aLateDeletionOfTheOldListDoesNotEndTheNewListsStreams() throws {
        let harness = try LiveHarness()
        var edits = RandomListEdits(seed: 8)
        try harness.put("l", edits.document(sections: 2, rowsPerSection: 1...3))
        let old = try #require(harness.registry.snapshot(id: "l"))
        let clients = [harness.subscribe("l", view: .json), harness.subscribe("l", view: .html)]
        let successor = IndexedList(document: edits.document(sections: 2, rowsPerSection: 1...3))
        let new = ListSnapshot(id: "l", version: old.version + 2, list: successor)
        harness.hub.receive(
            ListChange(
                id: "l", old: nil, new: new,
                patch: JSONPatch(operations: [.replace(path: .root, value: new.document.json)])))
        harness.hub.receive(ListChange(id: "l", old: old, new: nil, patch: JSONPatch(operations: [])))
        harness.hub.publishReceived()
        for client in clients {
            _ = try client.receive()
            #expect(!client.deleted, "\(client.view): the list that exists now was not deleted")
            #expect(client.stream.isOpen)
            #expect(client.version == new.version)
        }
        #expect(clients[0].doc == new.document.json)
        #expect(harness.hub.subscriberCount == 2)
    }

    @Test func deletesRacingSubscriptionsEndEveryStream() throws {
        let harness = try LiveHarness()
        var edits = RandomListEdits(seed: 44)
        let clients = Mutex<[LiveClient]>([])
        for round in 0..<30 {
            try harness.put("l", edits.document(sections: 2, rowsPerSection: 1...3))
            runConcurrently([
                { try harness.registry.delete(id: "l") },
                {
                    var mine: [LiveClient] = []
                    for index in 0..<4 { mine.append(harness.subscribe("l", view: (round + index) % 2 == 0 ? .json : .html)) }
                    clients.withLock { $0 += mine }
                },
            ])
        }
        for client in clients.withLock({ $0 }) {
            _ = try client.receive()
            #expect(client.deleted, "every stream of a deleted list ends with `deleted`")
            #expect(!client.stream.isOpen)
            client.stream.terminated()
        }
        #expect(harness.hub.subscriberCount == 0)
        #expect(harness.hub.directory.withLock { $0.channels.isEmpty && $0.staleCount == 0 })
    }
}
