import Foundation
import ListModel
import ListModelTesting
import ListServerTesting
import Synchronization
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// Each watched list has its own lock: many threads subscribing, resuming, leaving, writing
/// and growing windows on several lists at once, with idle channels closing under them, and
/// every stream still takes its client through each version exactly.
@Suite("Live hub: per-list locks under concurrent use")
struct LiveChannelLockTests {
    static let lists = ["a", "b", "c"]

    /// A list's documents and edits come from one seed, so each writer thread makes its own.
    func edits(for list: String) -> RandomListEdits {
        var edits = RandomListEdits(seed: UInt64(list.unicodeScalars.first!.value))
        _ = edits.document(sections: 3, rowsPerSection: 1...6)
        return edits
    }

    @Test(arguments: [1, 2])
    func severalListsAtOnceKeepEveryStreamExact(seed: UInt64) throws {
        // Idle channels close at once, so channels close and reopen while others subscribe.
        let harness = try LiveHarness(limits: LiveHub.Limits(maxBufferedBytes: 1 << 30, idleChannelSeconds: 0))
        for list in Self.lists {
            var edits = RandomListEdits(seed: UInt64(list.unicodeScalars.first!.value))
            try harness.put(list, edits.document(sections: 3, rowsPerSection: 1...6))
        }
        let writing = Atomic<Int>(Self.lists.count)
        let kept = Mutex<[LiveClient]>([])
        var bodies: [@Sendable () throws -> Void] = Self.lists.map { list in
            {
                var edits = edits(for: list)
                for _ in 0..<80 { try harness.edit(list, &edits, count: Int.random(in: 1...3, using: &edits.random)) }
                writing.subtract(1, ordering: .releasing)
            }
        }
        for thread in 0..<2 {
            bodies.append {
                var random = SplitMix64(seed: seed &* 31 &+ UInt64(thread))
                var mine: [LiveClient] = []
                // Writers no longer wait for fan-out, so they may finish first: every thread
                // still makes a few subscribers.
                while (writing.load(ordering: .acquiring) > 0 || mine.count < 8) && mine.count < 60 {
                    let list = Self.lists.randomElement(using: &random)!
                    let view: Subscriber.View = Bool.random(using: &random) ? .json : .html
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0 where !mine.isEmpty:
                        // Hang up and resume from the version reached.
                        let index = Int.random(in: 0..<mine.count, using: &random)
                        let old = mine.remove(at: index)
                        try harness.pump(old)
                        old.stream.terminated()
                        guard let version = old.version, let doc = old.doc else { continue }
                        let window: LiveHub.SubscribeRequest.WindowSpec
                        if old.view == .html, let until = doc["/until"]?.stringValue {
                            window = .until(try Cursor(decoding: until))
                        } else {
                            window = .limit(0)
                        }
                        mine.append(harness.subscribe(old.listID, view: old.view, window: window, since: version, base: doc))
                    case 1 where !mine.isEmpty:
                        let html = mine.filter { $0.view == .html }
                        if let client = html.randomElement(using: &random), let subscription = client.collect() {
                            _ = try harness.hub.extend(
                                subscription: subscription, listID: client.listID,
                                by: Int.random(in: 1...3, using: &random))
                        }
                    default:
                        mine.append(harness.subscribe(list, view: view, window: .limit(Int.random(in: 0...6, using: &random))))
                    }
                    // Reading as a connection would, and checking every step of the way.
                    if let client = mine.randomElement(using: &random) { try harness.pump(client) }
                }
                kept.withLock { $0 += mine }
            }
        }
        bodies.append {
            // Short-lived subscribers and the sweeper, closing channels that go idle.
            var random = SplitMix64(seed: seed &+ 99)
            while writing.load(ordering: .acquiring) > 0 {
                let client = harness.subscribe(
                    Self.lists.randomElement(using: &random)!,
                    view: Bool.random(using: &random) ? .json : .html)
                client.stream.terminated()
                harness.hub.sweepStaleSubscribers()
            }
        }
        runConcurrently(bodies)
        let clients = kept.withLock { $0 }
        #expect(clients.count > 10)
        for client in clients {
            try harness.pump(client)
            let current = try #require(harness.registry.snapshot(id: client.listID))
            #expect(client.version == current.version, "\(client.view) client of \(client.listID) reached the current version")
            #expect(client.stream.isOpen)
        }
        #expect(harness.hub.subscriberCount == clients.count)
        #expect(harness.hub.directory.withLock { $0.channelOfSubscription.count == clients.count && $0.staleCount == 0 })
    }

    @Test func slowSubscribersAreResetBySweepsRacingWritesOnSeveralLists() throws {
        let harness = try LiveHarness(limits: LiveHub.Limits(maxBufferedBytes: 3_000, staleTimeoutSeconds: 3_600))
        for list in Self.lists {
            var edits = RandomListEdits(seed: UInt64(list.unicodeScalars.first!.value))
            try harness.put(list, edits.document(sections: 3, rowsPerSection: 1...6))
        }
        let clients = Self.lists.flatMap { list in
            [
                harness.subscribe(list, view: .json), harness.subscribe(list, view: .html),
                harness.subscribe(list, view: .html, window: .limit(2)),
            ]
        }
        let writing = Atomic<Int>(Self.lists.count)
        var bodies: [@Sendable () throws -> Void] = Self.lists.map { list in
            {
                var edits = edits(for: list)
                for _ in 0..<60 { try harness.edit(list, &edits, count: Int.random(in: 1...3, using: &edits.random)) }
                writing.subtract(1, ordering: .releasing)
            }
        }
        bodies.append {
            while writing.load(ordering: .acquiring) > 0 { harness.hub.sweepStaleSubscribers() }
        }
        bodies.append {
            // Each client reads now and then, so it falls behind, drains, and is reset during writes.
            var random = SplitMix64(seed: 5)
            while writing.load(ordering: .acquiring) > 0 {
                try harness.pump(clients.randomElement(using: &random)!)
                usleep(200)
            }
        }
        runConcurrently(bodies)
        for _ in 0..<3 {
            for client in clients { try harness.pump(client) }
            harness.hub.sweepStaleSubscribers()
        }
        for client in clients {
            try harness.pump(client)
            #expect(
                client.version == harness.registry.snapshot(id: client.listID)?.version,
                "\(client.view) client of \(client.listID) reached the current version")
        }
        #expect(harness.hub.directory.withLock { ($0.subscriberCount, $0.staleCount) } == (clients.count, 0))
        #expect(clients.contains { $0.events.filter { $0.name == "reset" }.count > 1 }, "some subscriber fell behind and was reset")
    }

    @Test func theSubscriberLimitHoldsExactlyUnderConcurrentSubscriptions() throws {
        let harness = try LiveHarness(limits: LiveHub.Limits(maxSubscribers: 12))
        var edits = RandomListEdits(seed: 6)
        for list in Self.lists { try harness.put(list, edits.document(sections: 2, rowsPerSection: 1...4)) }
        let clients = Mutex<[LiveClient]>([])
        runConcurrently(
            (0..<4).map { thread in
                {
                    var mine: [LiveClient] = []
                    for index in 0..<8 {
                        mine.append(harness.subscribe(Self.lists[(thread + index) % 3], view: index % 2 == 0 ? .json : .html))
                    }
                    clients.withLock { $0 += mine }
                }
            })
        let all = clients.withLock { $0 }
        let open = all.filter { $0.stream.isOpen }
        #expect(open.count == 12, "exactly the limit got a stream")
        #expect(harness.hub.subscriberCount == 12)
        for client in all where !client.stream.isOpen {
            _ = try client.receive()
            #expect(client.events.isEmpty, "a refused stream gets no event")
        }
        for client in all { client.stream.terminated() }
        #expect(harness.hub.subscriberCount == 0)
        #expect(harness.subscribe("a", view: .json).stream.isOpen, "freed slots are given again")
    }

    @Test func aListWhoseChannelIsBusyHoldsUpNoOtherList() throws {
        let harness = try LiveHarness()
        var edits = RandomListEdits(seed: 17)
        try harness.put("busy", edits.document(sections: 2, rowsPerSection: 1...3))
        var freeEdits = RandomListEdits(seed: 18)
        try harness.put("free", freeEdits.document(sections: 2, rowsPerSection: 1...3))
        let watcher = harness.subscribe("busy", view: .json)
        let busy = try #require(harness.hub.directory.withLock { $0.channels["busy"] })
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // Holds the busy list's channel lock, as a long reset or publish of it would.
        Thread {
            busy.state.withLock { _ in
                held.signal()
                release.wait()
            }
        }.start()
        held.wait()
        let done = DispatchSemaphore(value: 0)
        let results = Mutex<[LiveClient]>([])
        Thread {
            var edits = RandomListEdits(seed: 18)
            _ = edits.document(sections: 2, rowsPerSection: 1...3)
            let client = harness.subscribe("free", view: .html)
            _ = try? harness.edit("free", &edits)
            results.withLock { $0.append(client) }
            done.signal()
        }.start()
        // Not a timing check: without per-list locks this would wait for `release`, which
        // comes only after; the timeout only keeps a broken hub from hanging the suite.
        let finished = done.wait(timeout: .now() + 60) == .success
        release.signal()
        #expect(finished, "the other list subscribed and published while the busy list's channel was held")
        if !finished { done.wait() }
        for client in results.withLock({ $0 }) {
            try harness.pump(client)
            #expect(client.version == harness.registry.snapshot(id: "free")?.version)
        }
        try harness.pump(watcher)
    }
}
