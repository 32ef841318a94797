import HTMLRenderer
@testable import HTTPServer
import ListModel
import ListModelTesting
import ListStore
import Synchronization
import Testing
@testable import list_server

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
        registry = try ListRegistry(store: store, publish: { change in
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
    func subscribe(_ id: String, view: Subscriber.View, window: LiveHub.SubscribeRequest.WindowSpec = .limit(50),
                   since: Int? = nil, base: JSONValue? = nil, beforeRegistering: () -> Void = {}) -> LiveClient {
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
            #expect(client.doc == expected, "\(client.view) client at version \(client.version!) after \(event.name!)",
                    sourceLocation: sourceLocation)
        }
    }
}

/// One parsed Server-Sent Event (or a `retry:` block).
struct SentEvent {
    var name: String?
    var id: Int?
    var data: [UInt8]?
    var retry: Int?
}

/// The client end of one stream: it parses the bytes the hub wrote and keeps the document.
final class LiveClient: @unchecked Sendable {
    let listID: String
    let view: Subscriber.View
    let stream = ResponseStream(heartbeat: nil)
    var doc: JSONValue?
    var version: Int?
    var subscription: String?
    var events: [SentEvent] = []
    var deleted = false
    /// Bytes read but not yet parsed.
    private var unparsed: [UInt8] = []

    init(listID: String, view: Subscriber.View, doc: JSONValue?, version: Int?) {
        self.listID = listID
        self.view = view
        self.doc = doc
        self.version = version
    }

    /// Everything buffered in the stream, as the connection would send it.
    func drain() -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { stream.read(into: $0.baseAddress!, max: $0.count) }
            if count <= 0 { return out }
            out += buffer[0..<count]
        }
    }

    /// Reads what arrived without parsing it (safe off the test's task); returns the
    /// subscription id once it has arrived.
    @discardableResult
    func collect() -> String? {
        unparsed += drain()
        let text = String(decoding: unparsed, as: UTF8.self)
        guard let range = text.range(of: "event: subscription\ndata: ") else { return nil }
        let line = text[range.upperBound...].prefix { $0 != "\n" }
        return (try? JSONValue(parsing: String(line)))?["/subscription"]?.stringValue
    }

    /// Parses and applies the events that arrived since the last call.
    func receive() throws -> [SentEvent] {
        collect()
        let parsed = try Self.parse(unparsed)
        unparsed = []
        for event in parsed {
            events.append(event)
            switch event.name {
            case "subscription":
                subscription = try JSONValue(parsing: event.data!)["/subscription"]?.stringValue
            case "reset":
                let data = try JSONValue(parsing: event.data!)
                #expect(data["/version"]?.numberValue.map { Int($0) } == event.id)
                #expect(data["/subscription"]?.stringValue == subscription)
                doc = data["/doc"]
                version = event.id
            case "patch":
                let id = try #require(event.id)
                let current = try #require(version, "a patch before any reset or since")
                #expect(id >= current, "patch ids never go back")
                if view == .json { #expect(id > current, "a json patch is never sent twice") }
                doc = try JSONPatch(parsing: event.data!).apply(to: try #require(doc))
                version = id
            case "deleted":
                deleted = true
            default:
                break
            }
        }
        return parsed
    }

    /// Splits a `text/event-stream` body into events; every line must be a field we send.
    static func parse(_ bytes: [UInt8]) throws -> [SentEvent] {
        var events: [SentEvent] = []
        var current = SentEvent()
        var started = false
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("\r"), "no carriage return anywhere in the stream")
        #expect(bytes.isEmpty || text.hasSuffix("\n\n"), "the hub writes whole events")
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                if started { events.append(current) }
                current = SentEvent()
                started = false
                continue
            }
            started = true
            if line.hasPrefix(":") { started = false; continue }
            if line.hasPrefix("event: ") { current.name = String(line.dropFirst(7)) }
            else if line.hasPrefix("id: ") { current.id = Int(line.dropFirst(4)) }
            else if line.hasPrefix("retry: ") { current.retry = Int(line.dropFirst(7)) }
            else if line.hasPrefix("data: ") {
                #expect(current.data == nil, "one data line per event")
                current.data = Array(line.dropFirst(6).utf8)
            } else {
                Issue.record("a line that is no SSE field we send: \(line.prefix(80))")
            }
        }
        return events
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
                    let (rows, more) = try harness.hub.extend(subscription: client.subscription!, listID: "l",
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
