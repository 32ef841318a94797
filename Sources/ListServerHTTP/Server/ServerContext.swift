import HTMLRenderer
import HTTPServer
import ListModel
import ListService
import ServerSupport

/// What every route can reach: static files, metrics, the lists, the live hub, access and the
/// renderer. Built once at start (by the executable, or a test), shared by all server threads.
package final class ServerContext: Sendable {
    package let assets: StaticFiles
    /// The same files, answered `immutable` under `/assets/v/{assetsVersion}/`.
    package let versionedAssets: StaticFiles
    /// The content version of the assets when the server started (`StaticFiles.contentVersion`).
    package let assetsVersion: String
    /// Where pages link their assets: `/assets/v/{assetsVersion}`.
    package var assetsPath: String { "/assets/v/\(assetsVersion)" }
    package let metrics: ServerMetrics
    package let registry: ListRegistry
    package let hub: LiveHub
    package let authorization: Authorization
    /// The open streams of a `--private` server and what let each open (ended when revoked).
    package let streamGrants = StreamGrants()
    package let renderer: HTMLRenderer
    package let documentLimits: ListDocument.Limits
    /// `--base-url` (validated, no trailing slash): view and edit links are made on it; nil:
    /// on the request's `Host`.
    package let baseURL: String?

    /// - Parameters:
    ///   - authorization: the access rules; by default open writes and public reads, with view
    ///     links signed by a secret of this process alone.
    ///   - maxRows: the most rows one list may hold (`--max-rows`).
    ///   - baseURL: `--base-url`, as `BaseURL.validated` returns it.
    package init(
        assets: StaticFiles, registry: ListRegistry, hub: LiveHub, metrics: ServerMetrics = ServerMetrics(),
        renderer: HTMLRenderer = HTMLRenderer(), authorization: Authorization? = nil,
        maxRows: Int = ServerDefaults.maxRows, baseURL: String? = nil
    ) {
        self.baseURL = baseURL
        self.assets = assets
        self.assetsVersion = assets.contentVersion()
        // Never stale for a browser that keeps it: a changed file gets a new version, so a new path.
        self.versionedAssets =
            (try? StaticFiles(directory: assets.root, cacheControl: "public, max-age=31536000, immutable"))
            ?? assets
        self.metrics = metrics
        self.registry = registry
        self.hub = hub
        self.authorization =
            authorization
            ?? Authorization(
                policy: AccessPolicy(
                    master: nil, tokens: [], tokensPath: nil, isPrivate: false, viewLinkSecret: AccessPolicy.randomSecret()))
        self.renderer = renderer
        self.documentLimits = ListDocument.Limits(maxRows: maxRows)
    }
}
