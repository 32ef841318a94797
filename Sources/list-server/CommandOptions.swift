import ArgumentParser
import ServerSupport

// The command line's options, in the groups `--help` shows them in.

/// Where and how the server answers.
struct ServingOptions: ParsableArguments {
    @Option(help: "Address to bind (an IPv4/IPv6 literal or a host name).")
    var host = ServerDefaults.host

    @Option(parsing: .unconditional, help: "Port to listen on; 0 picks a free one (the ready line names it).")
    var port = ServerDefaults.port

    @Option(
        name: .customLong("public"),
        help: ArgumentHelp(
            "Folder served under /assets/ (default: the package's Public/, found from the executable or the current directory).",
            valueName: "dir"))
    var publicDirectory: String?

    @Option(
        name: .customLong("cors-origin"),
        help: ArgumentHelp(
            "Let browser code from this origin (e.g. https://app.example.com) call the API: preflights allow every "
                + "method and the headers Authorization, Content-Type, If-Match, If-None-Match, Last-Event-ID; answers "
                + "expose ETag, Link, List-Cursor, Location. Repeatable; other origins get no CORS headers.",
            valueName: "origin"))
    var corsOrigins: [String] = []

    @Option(
        name: .customLong("base-url"),
        help: ArgumentHelp(
            "Where clients reach this server behind a proxy (e.g. https://lists.example.com): view and edit links' "
                + "url is made on it instead of the request's Host. An absolute http(s) URL, no query or fragment.",
            valueName: "url"))
    var baseURL: String?

    @Option(
        help: ArgumentHelp(
            "A name for this instance among several (A-Za-z0-9_-, up to 32): its subscription ids start with it and a dot, so a load balancer can send …/more to the instance that holds the stream.",
            valueName: "name"))
    var instance: String?

    @Flag(help: "Do not log a line per request.")
    var quiet = false

    @Option(
        help: ArgumentHelp(
            "Least level logged: debug, info (start, stop, one line per request), warning (a store out of reach, "
                + "slow clients cut off, malformed requests), error (failures of the server itself).",
            valueName: "level"))
    var logLevel = "info"
}

/// Where the lists are kept.
struct StorageOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "SQLite database file (':memory:' keeps nothing on disk), or a PostgreSQL URL shared by several instances "
                + "(postgresql://USER@HOST:PORT/DB, any libpq URI).",
            valueName: "path|url"))
    var db = ServerDefaults.database

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Bytes kept in reserve beside the SQLite file (<db>-reserve) so that lists can still be deleted on a full disk; 0: none.",
            valueName: "bytes"))
    var diskReserve = ServerDefaults.diskReserve

    @Flag(help: "Load demo lists on start when the store is empty.")
    var demo = false
}

/// Who may read and write (docs/ACCESS.md).
struct AccessOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A bearer token with every right: write on every list, and admin (default: $LIST_SERVER_TOKEN).",
            valueName: "token"))
    var token: String?

    @Option(
        help: ArgumentHelp(
            "File of scoped tokens, one a line: 'TOKEN SCOPE[,SCOPE...]', '#' starts a comment. Scopes: read:PATTERN, "
                + "write:PATTERN (implies read), admin (/metrics); PATTERN is a list id or a prefix ending in '*'. "
                + "Re-read on SIGHUP (a bad file keeps the tokens from before). Combines with --token.",
            valueName: "file"))
    var tokens: String?

    @Flag(
        name: .customLong("private"),
        help: ArgumentHelp(
            "Reads need a token with read on the list, or a view link; / and GET /lists show only readable lists; "
                + "/metrics needs admin. /healthz, /assets/ and /openapi.json stay public. Needs --token or --tokens."))
    var isPrivate = false

    @Option(
        help: ArgumentHelp(
            "Secret (at least 32 bytes) that signs view links (POST /lists/{id}/links); default: $LIST_SERVER_SECRET, "
                + "else one generated once and kept in the store. Changing it revokes every link.",
            valueName: "secret"))
    var secret: String?
}

/// Sizes and deadlines: what a request, a client or a write may take.
struct LimitOptions: ParsableArguments {
    @Option(
        parsing: .unconditional, help: ArgumentHelp("Largest request body accepted, in bytes; larger ones get 413.", valueName: "bytes"))
    var maxBody = ServerDefaults.maxBodyBytes

    @Option(parsing: .unconditional, help: ArgumentHelp("Most lists the server holds; creating more gets 507.", valueName: "count"))
    var maxLists = ServerDefaults.maxLists

    @Option(parsing: .unconditional, help: ArgumentHelp("Most rows one list holds; writes past it get 422.", valueName: "count"))
    var maxRows = ServerDefaults.maxRows

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Most connections open at once (streams included); more are closed as they arrive. At most the open-file limit.",
            valueName: "count"))
    var maxConnections = ServerDefaults.maxConnections

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Most connections open at once from one client address; more are closed as they arrive. 0: no cap. Default: \(ServerDefaults.maxConnectionsPerAddress), or no cap when bound to loopback (behind a proxy, every client has the proxy's address: use 0).",
            valueName: "count"))
    var maxConnectionsPerAddress: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a request head may take from its first byte (a new connection's first one: from connecting); slower clients are disconnected. 0: no limit.",
            valueName: "seconds"))
    var headerTimeout = ServerDefaults.headerTimeoutSeconds

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a request body gets before --body-min-rate applies: it must arrive within this plus one second per --body-min-rate bytes.",
            valueName: "seconds"))
    var bodyTimeout = ServerDefaults.bodyTimeoutSeconds

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Bytes per second a request body must average after --body-timeout; slower clients are disconnected. 0: no limit.",
            valueName: "bytes"))
    var bodyMinRate = ServerDefaults.bodyMinimumRate

    @Option(
        help: ArgumentHelp(
            "Seconds a write may wait for its list in all: behind the list's other writers, then for the store's locks "
                + "(PostgreSQL: the list's lock, a table lock; SQLite: another process's lock on the file). Then 503 with "
                + "Retry-After, saying the list is being written by another writer or locked in the store.",
            valueName: "seconds"))
    var writeTimeout = ServerDefaults.writeTimeoutSeconds
}

/// The /events streams.
struct LiveOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Most live views (sort, q, filters on /events) kept per list; a new one past it replaces one without subscribers, else 503.",
            valueName: "count"))
    var maxViews = ServerDefaults.maxViews

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Most open live streams (/lists/{id}/events and the live index, /events); more get 503.", valueName: "count"))
    var maxSubscribers = ServerDefaults.maxSubscribers

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a live subscriber may stay too far behind (more than 1 MiB unsent) before it is disconnected.",
            valueName: "seconds"))
    var staleTimeout = ServerDefaults.staleTimeoutSeconds
}
