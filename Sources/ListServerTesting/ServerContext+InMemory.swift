import HTMLRenderer
import HTTPServer
import ListServerHTTP
import ListService
import ListStore
import ServerSupport

extension ServerContext {
    /// A context over an in-memory store, as `list-server --db :memory:` would build it.
    package static func inMemory(
        token: String? = nil, maxLists: Int = ServerDefaults.maxLists, maxRows: Int = ServerDefaults.maxRows,
        baseURL: String? = nil
    ) throws -> ServerContext {
        let store = try SQLiteStore(path: ":memory:")
        let hub = LiveHub(renderer: HTMLRenderer())
        let registry = try ListRegistry(store: store, maxLists: maxLists, publish: { hub.receive($0) })
        let policy = AccessPolicy(
            master: token, tokens: [], tokensPath: nil, isPrivate: false,
            viewLinkSecret: AccessPolicy.randomSecret())
        return ServerContext(
            assets: try StaticFiles(directory: PublicDirectory.locate(explicit: nil)),
            registry: registry, hub: hub, authorization: Authorization(policy: policy), maxRows: maxRows,
            baseURL: baseURL)
    }
}
