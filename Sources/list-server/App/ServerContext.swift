import HTTPServer

/// What every route can reach: settings, static files, metrics; later the store and the
/// subscription hub. Built once at start, shared by all server threads.
final class ServerContext: Sendable {
    let settings: Settings
    let assets: StaticFiles
    let metrics: ServerMetrics

    init(settings: Settings, assets: StaticFiles, metrics: ServerMetrics = ServerMetrics()) {
        self.settings = settings
        self.assets = assets
        self.metrics = metrics
    }
}
