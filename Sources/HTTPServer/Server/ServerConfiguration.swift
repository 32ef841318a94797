#if canImport(Glibc)
import Glibc
#endif

/// How an `HTTPServer` listens and what it accepts.
public struct ServerConfiguration: Sendable {
    /// Address to bind: an IPv4 or IPv6 literal, or a name such as "localhost".
    public var host = "127.0.0.1"
    /// Port to bind; 0 lets the system pick a free one (read it back from `HTTPServer.port`).
    public var port = 8080
    /// Largest request body accepted; larger ones get 413 (before reading when declared).
    public var maxBodyBytes = 8 * 1024 * 1024
    /// Server threads, each with its own epoll loop; handlers run on them.
    public var threadCount = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    /// Most connections open at once (streams included); clamped to the process's file limit.
    public var connectionLimit = 20_000
    /// Seconds an idle keep-alive connection is kept (suspended streams never time out).
    public var connectionTimeoutSeconds = 60
    /// Per-connection memory for headers and read buffers. libmicrohttpd's default is 32 KiB; it
    /// zeroes this pool for every request, and idle streams hold it, so smaller is faster and
    /// leaner. Request headers must fit in roughly half of it.
    public var connectionMemoryLimit = 16 * 1024
    /// Streams idle this many seconds get their heartbeat bytes.
    public var heartbeatInterval = 15.0
    /// Origins whose browser code may call this server (CORS, see `CORSPolicy`); none by default.
    public var corsOrigins: [String] = []
    /// Log one line per request (method, target, status, duration) to standard error.
    public var logRequests = true
    /// Query items whose values never reach a log line (they read `name=REDACTED` there): secrets
    /// that travel in URLs, such as view-link keys. Header values are never logged at all.
    public var redactedQueryNames: Set<String> = ["key", "token", "access_token"]

    public init() {}
}
