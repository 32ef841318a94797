import HTMLRenderer
import HTTPServer
import ListStore
@testable import list_server

extension ServerContext {
    /// A context over an in-memory store, as `list-server --db :memory:` would build it.
    static func inMemory(token: String? = nil, maxLists: Int = 10_000, maxRows: Int = 1_000_000) throws -> ServerContext {
        var settings = Settings(configuration: ServerConfiguration(), databasePath: ":memory:", token: token,
                                publicDirectory: nil, demo: false)
        settings.maxLists = maxLists
        settings.maxRows = maxRows
        let store = try SQLiteStore(path: ":memory:")
        let hub = LiveHub(renderer: HTMLRenderer())
        let registry = try ListRegistry(store: store, maxLists: maxLists, publish: { hub.receive($0) })
        return ServerContext(settings: settings, assets: try StaticFiles(directory: PublicDirectory.locate(explicit: nil)),
                             registry: registry, hub: hub)
    }
}
