import Foundation
import HTMLRenderer
import ListModel
import ListModelTesting
import ListServerTesting
import Synchronization
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// The hub on its own, fed committed changes as the registry would hand them on, and the
/// registry's writers, which never wait for the hub's fan-out.
@Suite("Live hub: receiving committed changes")
struct LiveHubReceiveTests {
    /// Changes of one list made without a registry: each version's snapshot and its patch.
    struct Versions {
        var edits = RandomListEdits(seed: 90)
        var snapshots: [ListSnapshot] = []

        init() {
            let document = edits.document(sections: 3, rowsPerSection: 2...5)
            snapshots = [ListSnapshot(id: "l", version: 1, list: IndexedList(document: document))]
        }

        /// The next version, as a change from the last.
        mutating func next() -> ListChange {
            let old = snapshots.last!
            let document = edits.edited(old.document, edits: 3)
            let new = ListSnapshot(id: "l", version: old.version + 1, list: old.list.updated(to: document))
            snapshots.append(new)
            return ListChange(id: "l", old: old, new: new, patch: JSONPatch(from: old.document, to: document))
        }

        var created: ListChange { ListChange(id: "l", old: nil, new: snapshots[0], patch: JSONPatch(operations: [])) }
    }

    func subscribe(_ hub: LiveHub, _ view: Subscriber.View) -> LiveClient {
        let client = LiveClient(listID: "l", view: view, doc: nil, version: nil)
        hub.attach(LiveHub.SubscribeRequest(listID: "l", view: view, window: .limit(50), since: nil), to: client.stream)
        return client
    }

    @Test func aChannelOpenedAtAVersionGetsEveryLaterChangeAndNoEarlierOne() throws {
        let hub = LiveHub(renderer: HTMLRenderer())
        var versions = Versions()
        hub.receive(versions.created)
        for _ in 0..<3 { hub.receive(versions.next()) }
        let client = subscribe(hub, .json)
        for _ in 0..<4 { hub.receive(versions.next()) }
        hub.publishReceived()
        _ = try client.receive()
        #expect(client.events.map(\.name) == ["subscription", "reset", "patch", "patch", "patch", "patch"])
        #expect(client.events.compactMap(\.id) == [4, 5, 6, 7, 8])
        #expect(client.doc == versions.snapshots.last!.document.json)
    }

    @Test func changesPilingUpBehindABusyFanOutAreMergedIntoOneEvent() throws {
        let hub = LiveHub(renderer: HTMLRenderer(), limits: LiveHub.Limits(maxPendingChanges: 4))
        var versions = Versions()
        hub.receive(versions.created)
        let json = subscribe(hub, .json)
        let html = subscribe(hub, .html)
        let channel = try #require(hub.directory.withLock { $0.channels["l"] })
        // Holding the channel's lock, as a long fan-out would: nothing is published meanwhile.
        channel.state.withLock { _ in
            for _ in 0..<20 { hub.receive(versions.next()) }
            #expect(channel.inbox.withLock { $0.changes.count } == 4, "the inbox holds at most the limit")
        }
        hub.publishReceived()
        for client in [json, html] { _ = try client.receive() }
        #expect(json.events.compactMap(\.id) == [1, 2, 3, 4, 21], "the first changes one by one, then the rest merged")
        #expect(json.doc == versions.snapshots.last!.document.json)
        let window = try LiveWindow.through(Cursor(decoding: try #require(html.doc?["/until"]?.stringValue)))
        #expect(html.doc == LiveView(snapshot: versions.snapshots.last!, window: window, renderer: hub.renderer).json)
    }

    @Test func aWriterIsAnsweredWhileItsListsFanOutIsHeldUp() throws {
        let harness = try LiveHarness()
        var edits = RandomListEdits(seed: 91)
        try harness.put("l", edits.document(sections: 2, rowsPerSection: 1...3))
        let watcher = harness.subscribe("l", view: .html)
        let channel = try #require(harness.hub.directory.withLock { $0.channels["l"] })
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread {
            channel.state.withLock { _ in
                held.signal()
                release.wait()
            }
        }.start()
        held.wait()
        let written = DispatchSemaphore(value: 0)
        let box = EditsBox(edits)
        Thread {
            for _ in 0..<5 { _ = try? harness.edit("l", &box.edits) }
            written.signal()
        }.start()
        // Not a timing check: a writer that waited for fan-out would wait for `release`, which
        // comes only after; the timeout only keeps a broken server from hanging the suite.
        let answered = written.wait(timeout: .now() + 60) == .success
        #expect(answered, "five writes were answered while the list's subscribers could not be written to")
        #expect(harness.registry.snapshot(id: "l")?.version == 6)
        release.signal()
        if !answered { written.wait() }
        try harness.pump(watcher)
        #expect(watcher.version == 6)
    }

    final class EditsBox: @unchecked Sendable {
        var edits: RandomListEdits
        init(_ edits: RandomListEdits) { self.edits = edits }
    }

    @Test func aDeletionThenACreationUnderTheSameIdEndOldStreamsAndStartNewOnes() throws {
        let hub = LiveHub(renderer: HTMLRenderer())
        let versions = Versions()
        hub.receive(versions.created)
        let old = subscribe(hub, .json)
        let deleted = versions.snapshots[0]
        hub.receive(ListChange(id: "l", old: deleted, new: nil, patch: JSONPatch(operations: [])))
        let again = Versions()
        let recreated = ListSnapshot(id: "l", version: 3, list: again.snapshots[0].list)
        hub.receive(ListChange(id: "l", old: nil, new: recreated, patch: JSONPatch(operations: [])))
        let new = subscribe(hub, .json)
        hub.publishReceived()
        _ = try old.receive()
        _ = try new.receive()
        #expect(old.deleted)
        #expect(!new.deleted)
        #expect(new.version == 3)
        #expect(new.doc == recreated.document.json)
    }
}
