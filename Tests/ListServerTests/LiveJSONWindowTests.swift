import HTMLRenderer
import ListModel
import ListModelTesting
import ListServerTesting
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// Windowed `view=json` (API.md section 5): the document holds the window's rows plus `more` and
/// `until`, grows only through `…/more`, and after every event equals what a fresh subscription
/// with the same window gets at that version.
@Suite("Live hub: windowed view=json")
struct LiveJSONWindowTests {
    func rowCount(_ doc: JSONValue?) -> Int {
        doc?["/sections"]?.arrayValue?.reduce(0) { $0 + ($1["/rows"]?.arrayValue?.count ?? 0) } ?? -1
    }

    @Test func theDocumentHoldsOnlyTheWindowsRowsWithMoreAndUntil() throws {
        let harness = try LiveHarness()
        var edits = RandomListEdits(seed: 41)
        try harness.put("l", edits.document(sections: 3, rowsPerSection: 10...10))
        let windowed = harness.subscribe("l", view: .jsonWindow, window: .limit(5))
        let whole = harness.subscribe("l", view: .json)
        try harness.pump(windowed)
        try harness.pump(whole)
        let snapshot = try #require(harness.registry.snapshot(id: "l"))
        #expect(rowCount(windowed.doc) == 5)
        #expect(rowCount(whole.doc) == 30)
        #expect(windowed.doc?["/more"] == .bool(true))
        #expect(windowed.doc?["/until"] == .string(try #require(snapshot.list.windowEnd(limit: 5)).encoded))
        #expect(windowed.doc?["/title"] == whole.doc?["/title"])
        #expect(windowed.doc?["/columns"] == whole.doc?["/columns"])
        #expect(whole.doc?["/more"] == nil, "without limit or until, view=json is the whole document, as before")
        let all = harness.subscribe("l", view: .jsonWindow, window: .limit(1_000))
        try harness.pump(all)
        #expect(rowCount(all.doc) == 30)
        #expect(all.doc?["/more"] == .bool(false))
    }

    @Test(arguments: [51, 52, 53])
    func everyWindowFollowsRandomWritesAndGrowth(seed: UInt64) throws {
        let harness = try LiveHarness()
        var edits = RandomListEdits(seed: seed)
        try harness.put("l", edits.document(sections: 4, rowsPerSection: 0...8))
        var clients: [LiveClient] = []
        var grown = 0
        for step in 0..<150 {
            switch Int.random(in: 0..<10, using: &edits.random) {
            case 0:
                let current = try #require(harness.registry.snapshot(id: "l"))
                var windows: [LiveHub.SubscribeRequest.WindowSpec] = [.limit(0), .limit(1), .limit(7), .limit(1_000)]
                if let end = current.list.windowEnd(limit: 3) { windows.append(.until(end)) }
                clients.append(harness.subscribe("l", view: .jsonWindow, window: windows.randomElement(using: &edits.random)!))
            case 1:
                if let client = clients.filter({ $0.subscription != nil }).randomElement(using: &edits.random) {
                    try harness.pump(client)
                    let (rows, more) = try harness.hub.extend(
                        subscription: client.subscription!, listID: "l",
                        by: Int.random(in: 1...5, using: &edits.random))
                    try harness.pump(client)
                    #expect(rowCount(client.doc) == rows, "the stream brought the rows `more` announced")
                    #expect(client.doc?["/more"] == .bool(more))
                    grown += 1
                }
            default:
                try harness.edit("l", &edits, count: Int.random(in: 1...4, using: &edits.random))
            }
            if step % 5 == 0 { for client in clients { try harness.pump(client) } }
        }
        let current = try #require(harness.registry.snapshot(id: "l"))
        for client in clients {
            try harness.pump(client)
            #expect(client.version == current.version)
        }
        #expect(clients.count > 5)
        #expect(grown > 3)
    }

    @Test func resumesFromRecentVersionsWithOnePatchElseAReset() throws {
        let harness = try LiveHarness(limits: LiveHub.Limits(recentVersions: 4))
        var edits = RandomListEdits(seed: 44)
        try harness.put("l", edits.document(sections: 3, rowsPerSection: 2...6))
        let keeper = harness.subscribe("l", view: .jsonWindow, window: .limit(4))
        try harness.pump(keeper)
        let v1 = try #require(keeper.version)
        let until = try #require(keeper.doc?["/until"]?.stringValue)
        let base = keeper.doc
        for _ in 0..<3 { try harness.edit("l", &edits) }
        let resumed = harness.subscribe("l", view: .jsonWindow, window: .until(try Cursor(decoding: until)), since: v1, base: base)
        try harness.pump(resumed)
        #expect(resumed.events.map(\.name) == ["subscription", "patch"])
        #expect(resumed.version == v1 + 3)
        for _ in 0..<6 { try harness.edit("l", &edits) }
        let late = harness.subscribe("l", view: .jsonWindow, window: .until(try Cursor(decoding: until)), since: v1, base: base)
        try harness.pump(late)
        #expect(late.events.map(\.name) == ["subscription", "reset"], "beyond the kept versions: a reset")
        try harness.pump(keeper)
        #expect(late.doc?["/sections"] == keeper.doc?["/sections"])
    }

    @Test func onlyWindowedSubscriptionsGrow() throws {
        let harness = try LiveHarness()
        var edits = RandomListEdits(seed: 45)
        try harness.put("l", edits.document(sections: 2, rowsPerSection: 3...3))
        let whole = harness.subscribe("l", view: .json)
        try harness.pump(whole)
        #expect(throws: SubscriptionError.noWindow) {
            try harness.hub.extend(subscription: whole.subscription!, listID: "l", by: 2)
        }
    }

    @Test func subscribersOfOneVersionShareOneResetDocument() throws {
        let harness = try LiveHarness()
        var edits = RandomListEdits(seed: 46)
        try harness.put("l", edits.document(sections: 3, rowsPerSection: 20...20))
        var clients: [LiveClient] = []
        for _ in 0..<50 {
            clients.append(harness.subscribe("l", view: .json))
            clients.append(harness.subscribe("l", view: .jsonWindow, window: .limit(10)))
            clients.append(harness.subscribe("l", view: .html, window: .limit(10)))
        }
        let channel = try #require(harness.hub.directory.withLock { $0.channels["l"] })
        #expect(channel.resetDocuments.count == 3, "one document per view and window, however many subscribers")
        for client in clients { try harness.pump(client) }
        #expect(Set(clients.map { $0.doc?["/version"] == nil }).count == 1)
        try harness.edit("l", &edits)
        harness.hub.publishReceived()
        #expect(channel.resetDocuments.count == 0, "a new version forgets the old documents")
    }
}
