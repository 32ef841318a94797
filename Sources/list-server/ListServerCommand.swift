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
        one 401. SIGINT or SIGTERM stop it cleanly (exit status 0); SIGHUP re-reads --tokens. One \
        line per request goes to standard error unless --quiet or --log-level is above info; tokens \
        and view-link keys never do. \
        Answers are gzip-compressed for clients that send Accept-Encoding: gzip. \
        The API is described in docs/API.md and served as OpenAPI 3.1 at /openapi.json.

        Examples:
          list-server --demo                          demo lists in list-server.sqlite, on 127.0.0.1:8080
          list-server --db :memory: --port 0          nothing kept; a free port (the ready line names it)
          list-server --host 0.0.0.0 --tokens tokens.txt --private
                                                      reachable from other machines; reads and writes need tokens
          list-server --db postgresql://lists@db/lists --instance a
                                                      one of several instances sharing PostgreSQL
        """,
        version: ListServerVersion.current
    )

    @Option(help: "Address to bind (an IPv4/IPv6 literal or a host name).")
    var host = ServerDefaults.host

    @Option(parsing: .unconditional, help: "Port to listen on; 0 picks a free one (the ready line names it).")
    var port = ServerDefaults.port

    @Option(help: ArgumentHelp(
        "SQLite database file (':memory:' keeps nothing on disk), or a PostgreSQL URL shared by several instances "
            + "(postgresql://USER@HOST:PORT/DB, any libpq URI).",
        valueName: "path|url"))
    var db = ServerDefaults.database

    @Option(help: ArgumentHelp("A bearer token with every right: write on every list, and admin (default: $LIST_SERVER_TOKEN).",
                               valueName: "token"))
    var token: String?

    @Option(help: ArgumentHelp(
        "File of scoped tokens, one a line: 'TOKEN SCOPE[,SCOPE...]', '#' starts a comment. Scopes: read:PATTERN, "
        + "write:PATTERN (implies read), admin (/metrics); PATTERN is a list id or a prefix ending in '*'. "
        + "Re-read on SIGHUP (a bad file keeps the tokens from before). Combines with --token.",
        valueName: "file"))
    var tokens: String?

    @Flag(name: .customLong("private"), help: ArgumentHelp(
        "Reads need a token with read on the list, or a view link; / and GET /lists show only readable lists; "
        + "/metrics needs admin. /healthz, /assets/ and /openapi.json stay public. Needs --token or --tokens."))
    var isPrivate = false

    @Option(help: ArgumentHelp(
        "Secret (at least 32 bytes) that signs view links (POST /lists/{id}/links); default: $LIST_SERVER_SECRET, "
        + "else one generated once and kept in the store. Changing it revokes every link.",
        valueName: "secret"))
    var secret: String?

    @Option(name: .customLong("public"), help: ArgumentHelp(
        "Folder served under /assets/ (default: the package's Public/, found from the executable or the current directory).",
        valueName: "dir"))
    var publicDirectory: String?

    @Option(name: .customLong("cors-origin"), help: ArgumentHelp(
        "Let browser code from this origin (e.g. https://app.example.com) call the API: preflights allow every "
            + "method and the headers Authorization, Content-Type, If-Match, If-None-Match, Last-Event-ID; answers "
            + "expose ETag, Link, List-Cursor, Location. Repeatable; other origins get no CORS headers.",
        valueName: "origin"))
    var corsOrigins: [String] = []

    @Flag(help: "Load demo lists on start when the store is empty.")
    var demo = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Largest request body accepted, in bytes; larger ones get 413.", valueName: "bytes"))
    var maxBody = ServerDefaults.maxBodyBytes

    @Option(parsing: .unconditional, help: ArgumentHelp("Most lists the server holds; creating more gets 507.", valueName: "count"))
    var maxLists = ServerDefaults.maxLists

    @Option(parsing: .unconditional, help: ArgumentHelp("Most rows one list holds; writes past it get 422.", valueName: "count"))
    var maxRows = ServerDefaults.maxRows

    @Option(parsing: .unconditional, help: ArgumentHelp("Most open /events streams; more get 503.", valueName: "count"))
    var maxSubscribers = ServerDefaults.maxSubscribers

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Most live views (sort, q, filters on /events) kept per list; a new one past it replaces one without subscribers, else 503.",
        valueName: "count"))
    var maxViews = ServerDefaults.maxViews

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Seconds a live subscriber may stay too far behind (more than 1 MiB unsent) before it is disconnected.",
        valueName: "seconds"))
    var staleTimeout = ServerDefaults.staleTimeoutSeconds

    @Option(help: ArgumentHelp(
        "Seconds a write may wait for its list in all: behind the list's other writers, then for the store's locks "
            + "(PostgreSQL: the list's lock, a table lock; SQLite: another process's lock on the file). Then 503 with "
            + "Retry-After, saying the list is being written by another writer or locked in the store.",
        valueName: "seconds"))
    var writeTimeout = ServerDefaults.writeTimeoutSeconds

    @Option(help: ArgumentHelp(
        "A name for this instance among several (A-Za-z0-9_-, up to 32): its subscription ids start with it and a dot, so a load balancer can send …/more to the instance that holds the stream.",
        valueName: "name"))
    var instance: String?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Seconds a request head may take from its first byte (a new connection's first one: from connecting); slower clients are disconnected. 0: no limit.",
        valueName: "seconds"))
    var headerTimeout = ServerDefaults.headerTimeoutSeconds

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Seconds a request body gets before --body-min-rate applies: it must arrive within this plus one second per --body-min-rate bytes.",
        valueName: "seconds"))
    var bodyTimeout = ServerDefaults.bodyTimeoutSeconds

    @Option(parsing: .unconditional, help: ArgumentHelp("Bytes per second a request body must average after --body-timeout; slower clients are disconnected. 0: no limit.",
                               valueName: "bytes"))
    var bodyMinRate = ServerDefaults.bodyMinimumRate

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Most connections open at once from one client address; more are closed as they arrive. 0: no cap. Default: \(ServerDefaults.maxConnectionsPerAddress), or no cap when bound to loopback (behind a proxy, every client has the proxy's address: use 0).",
        valueName: "count"))
    var maxConnectionsPerAddress: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Most connections open at once (streams included); more are closed as they arrive. At most the open-file limit.",
                               valueName: "count"))
    var maxConnections = ServerDefaults.maxConnections

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Bytes kept in reserve beside the SQLite file (<db>-reserve) so that lists can still be deleted on a full disk; 0: none.",
        valueName: "bytes"))
    var diskReserve = ServerDefaults.diskReserve

    @Flag(help: "Do not log a line per request.")
    var quiet = false

    @Option(help: ArgumentHelp(
        "Least level logged: debug, info (start, stop, one line per request), warning (a store out of reach, "
            + "slow clients cut off, malformed requests), error (failures of the server itself).",
        valueName: "level"))
    var logLevel = "info"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0...65535.") }
        guard maxBody > 0 else { throw ValidationError("--max-body must be positive.") }
        guard maxLists > 0 else { throw ValidationError("--max-lists must be positive.") }
        guard maxRows > 0 else { throw ValidationError("--max-rows must be positive.") }
        guard maxSubscribers > 0 else { throw ValidationError("--max-subscribers must be positive.") }
        guard maxViews > 0 else { throw ValidationError("--max-views must be positive.") }
        guard staleTimeout > 0 && staleTimeout <= 86_400 else { throw ValidationError("--stale-timeout must be in (0, 86400].") }
        guard writeTimeout >= 0.01 && writeTimeout <= 3_600 else { throw ValidationError("--write-timeout must be in [0.01, 3600].") }
        if let instance, !Settings.isValidInstanceName(instance) {
            throw ValidationError("--instance \(instance): 1 to 32 of A-Za-z0-9_-.")
        }
        for origin in corsOrigins where !CORSOrigin.isValid(origin) {
            throw ValidationError("--cors-origin \(origin): an origin is scheme://host[:port] (http or https), with no path or trailing slash.")
        }
        guard headerTimeout >= 0, bodyTimeout >= 0, bodyMinRate >= 0 else {
            throw ValidationError("--header-timeout, --body-timeout and --body-min-rate must not be negative.")
        }
        guard (maxConnectionsPerAddress ?? 0) >= 0 else { throw ValidationError("--max-connections-per-address must not be negative.") }
        guard diskReserve >= 0 else { throw ValidationError("--disk-reserve must not be negative.") }
        guard maxConnections >= 16 else { throw ValidationError("--max-connections must be at least 16.") }
        guard Log.Level(name: logLevel) != nil else {
            throw ValidationError("--log-level \(logLevel): one of debug, info, warning, error.")
        }
    }

    func run() throws {
        Log.level = Log.Level(name: logLevel) ?? .info
        let token = token ?? ProcessInfo.processInfo.environment["LIST_SERVER_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.maxBodyBytes = maxBody
        configuration.logRequests = !quiet
        configuration.corsOrigins = corsOrigins
        configuration.requestHeadTimeout = headerTimeout
        configuration.requestBodyTimeout = bodyTimeout
        configuration.requestBodyMinimumRate = bodyMinRate
        configuration.maxConnectionsPerAddress = maxConnectionsPerAddress
        configuration.connectionLimit = maxConnections
        let environment = ProcessInfo.processInfo.environment
        let secret = secret ?? environment["LIST_SERVER_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        var settings = Settings(configuration: configuration, databasePath: db, token: token, tokensFile: tokens,
                                isPrivate: isPrivate, secret: secret,
                                publicDirectory: publicDirectory, demo: demo, maxLists: maxLists, maxRows: maxRows,
                                maxSubscribers: maxSubscribers, staleTimeoutSeconds: staleTimeout, instanceName: instance)
        settings.diskReserve = diskReserve
        settings.maxViews = maxViews
        settings.writeTimeoutSeconds = writeTimeout
        try App(settings: settings).run()
    }
}
