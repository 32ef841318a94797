import Foundation
import HTMLRenderer
import ListModel
import ListServerTesting
import ListStore
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// One list-server instance in process, with its own connection to a store file that other
/// instances share, its own registry, hub and follower; feed notifications are delivered by the
/// test (`notify`, `reconcile`), as PostgreSQL's LISTEN/NOTIFY and the periodic comparison would.
final class SharedStoreInstance: Sendable {
    let store: any Store
    let hub: LiveHub
    let registry: ListRegistry
    let follower: StoreFollower
    let client: RouterClient

    convenience init(path: String, changeLogLimit: Int = 1_000) throws {
        try self.init(store: SQLiteStore(path: path, changeLogLimit: changeLogLimit))
    }

    init(store: any Store) throws {
        self.store = store
        let hub = LiveHub(renderer: HTMLRenderer())
        registry = try ListRegistry(store: store, publish: { hub.receive($0) })
        self.hub = hub
        follower = StoreFollower(registry: registry, store: store, reconcileSeconds: nil)
        client = RouterClient(
            context: ServerContext(
                assets: try StaticFiles(directory: PublicDirectory.locate(explicit: nil)), registry: registry, hub: hub))
    }

    /// Tells the instance that `id` was committed at `version` elsewhere and waits for its catch-up.
    func notify(_ id: String, _ version: Int) {
        follower.receive(.committed(id: id, version: version))
        follower.waitUntilIdle()
    }

    /// Runs one reconciliation with the store and waits for the catch-ups it queued.
    func reconcile() {
        follower.reconcile()
        follower.waitUntilIdle()
    }

    /// Opens `GET /lists/{id}/events` through the route, as a connection would.
    func subscribe(
        _ id: String, view: Subscriber.View, query: String = "", lastEventID: Int? = nil,
        base: JSONValue? = nil
    ) throws -> LiveClient {
        var headers = HTTPHeaders()
        if let lastEventID { headers["Last-Event-ID"] = String(lastEventID) }
        let answer = try client.send(.get, "/lists/\(id)/events?view=\(view == .json ? "json" : "html")\(query)", headers: headers)
        guard case .stream(let setup) = answer.response.body else {
            Issue.record("not a stream: \(answer.status) \(answer.body)")
            throw SharedStoreError.notAStream(answer.status)
        }
        let live = LiveClient(listID: id, view: view, doc: base, version: lastEventID)
        setup.start(live.stream)
        return live
    }

    /// Reads what reached `client` once every change received so far is published.
    func pump(_ client: LiveClient) throws {
        hub.publishReceived()
        _ = try client.receive()
    }

    /// The list's JSON document as `GET` answers it, and its version.
    func document(_ id: String) throws -> (json: JSONValue, version: Int)? {
        let answer = try client.get("/lists/\(id)", accept: "application/json")
        guard answer.status == 200, let etag = answer.header("ETag"), let version = Int(etag.dropFirst().dropLast()) else {
            return nil
        }
        return (try JSONValue(parsing: answer.body), version)
    }

    /// The `view=html` view document a fresh subscription of the same window as `client` gets now.
    func freshView(of client: LiveClient) throws -> JSONValue? {
        let until = client.doc?["/until"]?.stringValue
        let fresh = try subscribe(client.listID, view: .html, query: until.map { "&until=\($0)" } ?? "&limit=0")
        try pump(fresh)
        fresh.stream.terminated()
        return fresh.doc
    }
}

enum SharedStoreError: Error {
    case notAStream(Int)
}

/// Runs `body` with `count` instances sharing one new SQLite file, removed afterwards.
func withSharedStore(
    instances count: Int, changeLogLimit: Int = 1_000,
    _ body: ([SharedStoreInstance]) throws -> Void
) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shared-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("lists.sqlite").path
    let instances = try (0..<count).map { _ in try SharedStoreInstance(path: path, changeLogLimit: changeLogLimit) }
    defer { for instance in instances { instance.store.close() } }
    try body(instances)
}
