import Foundation
import ListModel
import ListModelTesting
import ListServerTesting
import Testing

@testable import ListService

/// A new live view is built before its list's lock is taken: while one is sorting (here: a page
/// read building it, for as long as the test holds it), the list's other streams go on.
@Suite("Live hub: opening a live view")
struct LiveViewOpeningTests {
    /// Writes land while the view is built: a whole-document write (the view is made again), or
    /// keyed row edits that move rows across the sort (brought into the view from those rows).
    @Test(arguments: [false, true]) func aViewBeingBuiltHoldsUpNoOtherStreamOfItsList(keyedEdits: Bool) throws {
        let harness = try LiveHarness()
        let columns = LiveQueryViewTests.columns
        let rows = (0..<200).map { Row(key: "r\($0)", cells: ["name": .text("n\($0)"), "pop": .number(Double($0 % 7))]) }
        let document = ListDocument(title: "T", columns: columns, sections: [Section(key: "s", rows: rows)])
        let snapshot = try harness.put("l", document)
        let watcher = harness.subscribe("l", view: .json)
        let query = try ListQuery(parameters: [("sort_desc", "pop")], columns: columns)

        let building = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? snapshot.cache.view(query) {
                building.signal()
                release.wait()
                return try snapshot.list.view(query)
            }
        }
        building.wait()
        let viewer = LiveClient(listID: "l", view: .html, doc: nil, version: nil)
        let attached = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let request = LiveHub.SubscribeRequest(listID: "l", view: .html, window: .limit(50), since: nil, query: query)
            harness.hub.attach(request, to: viewer.stream)
            attached.signal()
        }
        Thread.sleep(forTimeInterval: 0.3)  // the viewer now waits for that build

        // Meanwhile a write is published to the list's streams, and another stream starts.
        let wrote = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            if keyedEdits {
                for (key, pop) in [("r3", 100.0), ("r150", -1), ("r7", 3)] {
                    let row = Row(key: key, cells: ["name": .text("moved \(key)"), "pop": .number(pop)])
                    _ = try? harness.registry.writeRows(id: "l") { try $0.replacingRow(row) }
                    harness.hub.publishReceived()
                }
            } else {
                var edited = document
                edited.title = "T2"
                _ = try? harness.put("l", edited)
                harness.hub.publishReceived()
            }
            _ = harness.subscribe("l", view: .json)
            wrote.signal()
        }
        let held = wrote.wait(timeout: .now() + 5) != .success
        release.signal()
        #expect(!held, "the list's streams waited for a live view's build")
        #expect(attached.wait(timeout: .now() + 30) == .success)
        if held { _ = wrote.wait(timeout: .now() + 30) }
        #expect(try watcher.receive().contains { $0.name == "patch" })

        // The viewer's first document is the view at the version of the last write.
        harness.hub.publishReceived()
        let viewClient = LiveQueryViewTests.ViewClient(client: viewer, query: query)
        let events = try viewer.receive()
        #expect(events.contains { $0.name == "reset" })
        let expected = try LiveQueryViewTests().expected(harness, viewClient, at: viewer.version!)
        #expect(viewer.doc == expected)
        #expect(viewer.version == (keyedEdits ? 4 : 2))
    }

    /// A live view's index made beforehand (`prepareView(for:)`) and brought through random
    /// writes made meanwhile (keyed row edits: from the rows they wrote; others: made again)
    /// starts its subscriber exactly where a fresh view would.
    @Test func aViewMadeBeforeWritesStartsAtTheCurrentVersion() throws {
        var generator = LiveQueryViewTests.Generator(rng: SplitMix64(seed: 2026_11_27))
        let tests = LiveQueryViewTests()
        var broughtAlong = 0
        for round in 0..<80 {
            let harness = try LiveHarness()
            try harness.put("l", generator.document())
            let query = generator.query()
            let view: Subscriber.View = generator.pick([Subscriber.View.html, .jsonWindow, .json])
            let window: LiveHub.SubscribeRequest.WindowSpec = .limit(Int.random(in: 1...5, using: &generator.rng))
            var request = LiveHub.SubscribeRequest(listID: "l", view: view, window: window, since: nil, query: query)
            request.prepared = harness.hub.prepareView(for: request)
            var keyedOnly = true
            for _ in 0..<Int.random(in: 0...5, using: &generator.rng) {
                let current = try #require(harness.registry.snapshot(id: "l"))
                if let edit = try generator.write(current.list) {
                    try harness.registry.writeRows(id: "l") { _ in edit }
                } else {
                    keyedOnly = false
                    try harness.registry.write(id: "l") { generator.wholeWrite($0!) }
                }
                harness.hub.publishReceived()
            }
            if keyedOnly { broughtAlong += 1 }
            let client = LiveClient(listID: "l", view: view, doc: nil, version: nil)
            harness.hub.attach(request, to: client.stream)
            _ = try client.receive()
            let current = try #require(harness.registry.snapshot(id: "l"))
            #expect(client.version == current.version, "round \(round)")
            let expected = try tests.expected(harness, .init(client: client, query: query), at: current.version)
            #expect(client.doc == expected, "round \(round): \(view) of \(query.queryString)")
        }
        #expect(broughtAlong > 10)
    }
}
