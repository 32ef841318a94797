import ArgumentParser
import Foundation
import HTTPServer
import ListServerHTTP
import ServerSupport

/// The `list-server` command line.
@main
struct ListServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-server",
        abstract: "Serve shared lists as HTML tables, page by page, live over Server-Sent Events.",
        discussion: """
            Reads are public unless --private. Writes need "Authorization: Bearer TOKEN" when a token \
            is set (--token, --tokens); a server bound to a non-loopback address refuses to start \
            without one. A token without the scope a request needs gets 403, no token or an unknown \
            one 401. SIGINT or SIGTERM stop it cleanly (exit status 0); SIGHUP re-reads --tokens and ends the open streams it no longer allows. One \
            line per request goes to standard error unless --quiet or --log-level is above info; tokens \
            and view-link keys never do. \
            Answers are gzip-compressed for clients that send Accept-Encoding: gzip. \
            The API is described in docs/API.md and served as OpenAPI 3.1 at /openapi.json.

            Examples:
              list-server --demo
                  demo lists kept in list-server.sqlite, at http://127.0.0.1:8080/
              list-server --host 0.0.0.0 --tokens tokens.txt --private
                  reachable from other machines; reads and writes need a token
            """,
        version: ListServerVersion.current
    )

    @OptionGroup(title: "Serving") var serving: ServingOptions
    @OptionGroup(title: "Storage") var storage: StorageOptions
    @OptionGroup(title: "Access") var access: AccessOptions
    @OptionGroup(title: "Limits") var limits: LimitOptions
    @OptionGroup(title: "Live") var live: LiveOptions

    func validate() throws {
        guard (0...65535).contains(serving.port) else { throw ValidationError("--port must be in 0...65535.") }
        guard limits.maxBody > 0 else { throw ValidationError("--max-body must be positive.") }
        guard limits.maxLists > 0 else { throw ValidationError("--max-lists must be positive.") }
        guard limits.maxRows > 0 else { throw ValidationError("--max-rows must be positive.") }
        guard live.maxSubscribers > 0 else { throw ValidationError("--max-subscribers must be positive.") }
        guard live.maxViews > 0 else { throw ValidationError("--max-views must be positive.") }
        guard live.staleTimeout > 0 && live.staleTimeout <= 86_400 else { throw ValidationError("--stale-timeout must be in (0, 86400].") }
        guard limits.writeTimeout >= 0.01 && limits.writeTimeout <= 3_600 else {
            throw ValidationError("--write-timeout must be in [0.01, 3600].")
        }
        if let instance = serving.instance, !Settings.isValidInstanceName(instance) {
            throw ValidationError("--instance \(instance): 1 to 32 of A-Za-z0-9_-.")
        }
        for origin in serving.corsOrigins where !CORSOrigin.isValid(origin) {
            throw ValidationError(
                "--cors-origin \(origin): an origin is scheme://host[:port] (http or https), with no path or trailing slash.")
        }
        if let baseURL = serving.baseURL, case .failure(let reason) = BaseURL.validated(baseURL) {
            throw ValidationError("--base-url \(baseURL): \(reason).")
        }
        guard limits.headerTimeout >= 0, limits.bodyTimeout >= 0, limits.bodyMinRate >= 0 else {
            throw ValidationError("--header-timeout, --body-timeout and --body-min-rate must not be negative.")
        }
        guard (limits.maxConnectionsPerAddress ?? 0) >= 0 else {
            throw ValidationError("--max-connections-per-address must not be negative.")
        }
        guard storage.diskReserve >= 0 else { throw ValidationError("--disk-reserve must not be negative.") }
        guard limits.maxConnections >= 16 else { throw ValidationError("--max-connections must be at least 16.") }
        guard Log.Level(name: serving.logLevel) != nil else {
            throw ValidationError("--log-level \(serving.logLevel): one of debug, info, warning, error.")
        }
    }

    func run() throws {
        Log.level = Log.Level(name: serving.logLevel) ?? .info
        let token = access.token ?? ProcessInfo.processInfo.environment["LIST_SERVER_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        var configuration = ServerConfiguration()
        configuration.host = serving.host
        configuration.port = serving.port
        configuration.maxBodyBytes = limits.maxBody
        configuration.logRequests = !serving.quiet
        configuration.corsOrigins = serving.corsOrigins
        configuration.requestHeadTimeout = limits.headerTimeout
        configuration.requestBodyTimeout = limits.bodyTimeout
        configuration.requestBodyMinimumRate = limits.bodyMinRate
        configuration.maxConnectionsPerAddress = limits.maxConnectionsPerAddress
        configuration.connectionLimit = limits.maxConnections
        let environment = ProcessInfo.processInfo.environment
        let secret = access.secret ?? environment["LIST_SERVER_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        var settings = Settings(
            configuration: configuration, databasePath: storage.db, token: token, tokensFile: access.tokens,
            isPrivate: access.isPrivate, secret: secret,
            publicDirectory: serving.publicDirectory, demo: storage.demo, maxLists: limits.maxLists, maxRows: limits.maxRows,
            maxSubscribers: live.maxSubscribers, staleTimeoutSeconds: live.staleTimeout, instanceName: serving.instance)
        settings.diskReserve = storage.diskReserve
        settings.maxViews = live.maxViews
        settings.writeTimeoutSeconds = limits.writeTimeout
        settings.baseURL = serving.baseURL.flatMap { try? BaseURL.validated($0).get() }
        try App(settings: settings).run()
    }
}
