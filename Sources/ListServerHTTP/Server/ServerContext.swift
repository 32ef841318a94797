import HTMLRenderer
import HTTPServer
import ListModel
import ListService
import ServerSupport

/// What every route can reach: static files, metrics, the lists, the live hub, access and the
/// renderer. Built once at start (by the executable, or a test), shared by all server threads.
package final class ServerContext: Sendable {
    package let assets: StaticFiles
    package let metrics: ServerMetrics
    package let registry: ListRegistry
    package let hub: LiveHub
    package let authorization: Authorization
    package let renderer: HTMLRenderer
    package let documentLimits: ListDocument.Limits

    /// - Parameters:
    ///   - authorization: the access rules; by default open writes and public reads, with view
    ///     links signed by a secret of this process alone.
    ///   - maxRows: the most rows one list may hold (`--max-rows`).
    package init(assets: StaticFiles, registry: ListRegistry, hub: LiveHub, metrics: ServerMetrics = ServerMetrics(),
                 renderer: HTMLRenderer = HTMLRenderer(), authorization: Authorization? = nil,
                 maxRows: Int = ServerDefaults.maxRows) {
        self.assets = assets
        self.metrics = metrics
        self.registry = registry
        self.hub = hub
        self.authorization = authorization ?? Authorization(policy: AccessPolicy(
            master: nil, tokens: [], tokensPath: nil, isPrivate: false, viewLinkSecret: AccessPolicy.randomSecret()))
        self.renderer = renderer
        self.documentLimits = ListDocument.Limits(maxRows: maxRows)
    }
}
