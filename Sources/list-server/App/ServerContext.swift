import HTMLRenderer
import HTTPServer
import ListModel

/// What every route can reach: settings, static files, metrics, the lists and the renderer.
/// Built once at start, shared by all server threads.
final class ServerContext: Sendable {
    let settings: Settings
    let assets: StaticFiles
    let metrics: ServerMetrics
    let registry: ListRegistry
    let hub: LiveHub
    let authorization: Authorization
    let renderer: HTMLRenderer
    let documentLimits: ListDocument.Limits

    /// - Parameter authorization: the access rules; by default `settings.token` with every right
    ///   and view links signed with a secret of this process alone.
    init(settings: Settings, assets: StaticFiles, registry: ListRegistry, hub: LiveHub, metrics: ServerMetrics = ServerMetrics(),
         renderer: HTMLRenderer = HTMLRenderer(), authorization: Authorization? = nil) {
        self.settings = settings
        self.assets = assets
        self.metrics = metrics
        self.registry = registry
        self.hub = hub
        self.authorization = authorization ?? Authorization(
            master: settings.token, tokens: [], tokensPath: nil, isPrivate: settings.isPrivate,
            viewLinkSecret: Authorization.randomSecret())
        self.renderer = renderer
        self.documentLimits = ListDocument.Limits(maxRows: settings.maxRows)
    }
}
