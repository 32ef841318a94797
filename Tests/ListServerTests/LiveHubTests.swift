import HTMLRenderer
import ListModel
import ListModelTesting
import ListServerTesting
import ListStore
import Synchronization
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// A hub wired to a registry over an in-memory store, remembering every published version so
/// that tests can compute what a fresh subscription would get at any of them.
final class LiveHarness: Sendable {
    let store: SQLiteStore
    let hub: LiveHub
    let registry: ListRegistry
    private let history: History

    /// Every published snapshot, by list and version.
    final class History: Sendable {
        let versions = Mutex<[String: [Int: ListSnapshot]]>([:])
    }

    init(limits: LiveHub.Limits = LiveHub.Limits(), changeLogLimit: Int = 1_000) throws {
        store = try SQLiteStore(path: ":memory:", changeLogLimit: changeLogLimit)
        let hub = LiveHub(renderer: HTMLRenderer(), limits: limits)
        let history = History()
        registry = try ListRegistry(
            store: store,
            publish: { change in
                if let new = change.new { history.versions.withLock { $0[change.id, default: [:]][new.version] = new } }
                hub.receive(change)
            })
        self.hub = hub
        self.history = history
    }

    /// The list as it was at `version`.
    func snapshot(_ id: String, at version: Int) -> ListSnapshot? {
        history.versions.withLock { $0[id]?[version] }
    }

    @discardableResult
    func put(_ id: String, _ document: ListDocument) throws -> ListSnapshot {
        try registry.write(id: id, mayCreate: true) { _ in document }
    }

    @discardableResult
    func edit(_ id: String, _ edits: inout RandomListEdits, count: Int = 3) throws -> ListSnapshot {
        try registry.write(id: id) { edits.edited($0!, edits: count) }
    }

    /// Opens a subscription the way `/events` does.
    /// - Parameter beforeRegistering: runs between making the first events and registering.
    func subscribe(
        _ id: String, view: Subscriber.View, window: LiveHub.SubscribeRequest.WindowSpec = .limit(50),
        since: Int? = nil, base: JSONValue? = nil, beforeRegistering: () -> Void = {}
    ) -> LiveClient {
        let client = LiveClient(listID: id, view: view, doc: base, version: since)
        var request = LiveHub.SubscribeRequest(listID: id, view: view, window: window, since: since)
        // As `/events` does: a `view=json` resume brings the store's change log.
        if view == .json, let since { request.logged = registry.changeLog(of: id, after: since) }
        hub.attach(request, to: client.stream, beforeRegistering: beforeRegistering)
        return client
    }

    /// The document a fresh subscription of `client`'s view and window gets at `version`.
    func expectedDocument(for client: LiveClient, at version: Int) throws -> JSONValue? {
        guard let snapshot = snapshot(client.listID, at: version) else { return nil }
        switch client.view {
        case .json: return snapshot.document.json
        case .jsonWindow:
            let window: LiveWindow = try client.doc?["/until"]?.stringValue.map { .through(try Cursor(decoding: $0)) } ?? .empty
            return JSONWindowView(snapshot: snapshot, window: window).json
        case .html:
            let window: LiveWindow = try client.doc?["/until"]?.stringValue.map { .through(try Cursor(decoding: $0)) } ?? .empty
            return LiveView(snapshot: snapshot, window: window, renderer: hub.renderer).json
        }
    }

    /// Reads what reached `client`, applies it, and checks after every `reset` and `patch`
    /// that its document is what a fresh subscription gets at that event's version.
    func pump(_ client: LiveClient, sourceLocation: SourceLocation = #_sourceLocation) throws {
        hub.publishReceived()
        for event in try client.receive() where event.name == "reset" || event.name == "patch" {
            let expected = try expectedDocument(for: client, at: client.version!)
            #expect(
                client.doc == expected, "\(client.view) client at version \(client.version!) after \(event.name!)",
                sourceLocation: sourceLocation)
        }
    }
}

@Suite("Live hub: events in order, each taking the client to the version it names")
struct LiveHubTests {
    @Test func everySubscriberFollowsRandomWritesAndWindowGrowth() throws {
        let harness = try LiveHarness()
        var edits = RandomListEdits(seed: 21)
        try harness.put("l", edits.document(sections: 4, rowsPerSection: 0...6))
        var clients: [LiveClient] = []
        var extended = 0
        for step in 0..<120 {
            switch Int.random(in: 0..<10, using: &edits.random) {
            case 0:
                let windows: [LiveHub.SubscribeRequest.WindowSpec] = [.limit(0), .limit(1), .limit(5), .limit(1_000)]
                let view: Subscriber.View = Bool.random(using: &edits.random) ? .json : .html
                clients.append(harness.subscribe("l", view: view, window: windows.randomElement(using: &edits.random)!))
            case 1:
                let html = clients.filter { $0.view == .html && $0.subscription != nil }
                if let client = html.randomElement(using: &edits.random) {
                    try harness.pump(client)
                    let (rows, more) = try harness.hub.extend(
                        subscription: client.subscription!, listID: "l",
                        by: Int.random(in: 1...4, using: &edits.random))
                    try harness.pump(client)
                    if client.doc?["/status"] == .null {
                        let held = client.doc?["/sections"]?.arrayValue?.reduce(0) { $0 + ($1["/rows"]?.arrayValue?.count ?? 0) }
                        #expect(held == rows, "the stream brought the rows `more` announced")
                        #expect(client.doc?["/more"] == .bool(more))
                    }
                    extended += 1
                }
            default:
                try harness.edit("l", &edits, count: Int.random(in: 1...4, using: &edits.random))
            }
            if step % 7 == 0 { for client in clients { try harness.pump(client) } }
        }
        let current = try #require(harness.registry.snapshot(id: "l"))
        for client in clients {
            try harness.pump(client)
            #expect(client.version == current.version)
        }
        #expect(clients.count > 5)
        #expect(extended > 3)
        #expect(harness.hub.subscriberCount == clients.count)
    }

    @Test func textWithLineBreaksAndControlCharactersStaysOnOneDataLine() throws {
        let harness = try LiveHarness()
        var document = ListDocument(title: "t\r\n\u{2028}\u{2029}\u{85}", columns: [Column(key: "name")])
        document.sections = [Section(key: "s", header: "h\r\nx")]
        try harness.put("l", document)
        let json = harness.subscribe("l", view: .json)
        let html = harness.subscribe("l", view: .html)
        document.sections[0].rows = [Row(key: "r\n1", cells: ["name": .text("a\rb\nc\u{1}\u{1F}\u{7F}\u{2028}")])]
        try harness.put("l", document)
        try harness.pump(json)
        try harness.pump(html)
        #expect(json.events.map(\.name) == ["subscription", "reset", "patch"])
        #expect(html.events.map(\.name) == ["subscription", "reset", "patch"])
        #expect(json.doc?["/sections/0/rows/0/cells/name"] == .string("a\rb\nc\u{1}\u{1F}\u{7F}\u{2028}"))
    }

    @Test func deletingAListEndsEveryStreamAndLaterSubscribersAreToldAtOnce() throws {
        let harness = try LiveHarness()
        var edits = RandomListEdits(seed: 5)
        try harness.put("l", edits.document(sections: 2, rowsPerSection: 1...3))
        let clients = [harness.subscribe("l", view: .json), harness.subscribe("l", view: .html)]
        try harness.registry.delete(id: "l")
        let late = harness.subscribe("l", view: .html)
        for client in clients + [late] {
            _ = try client.receive()
            #expect(client.deleted)
            #expect(!client.stream.isOpen)
            client.stream.terminated()
        }
        #expect(harness.hub.subscriberCount == 0)
        #expect(harness.hub.directory.withLock { $0.channels.isEmpty && $0.channelOfSubscription.isEmpty })
    }
}
