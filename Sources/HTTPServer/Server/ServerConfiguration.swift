import ServerSupport

#if canImport(Glibc)
import Glibc
#endif

/// How an `HTTPServer` listens and what it accepts.
public struct ServerConfiguration: Sendable {
    /// Address to bind: an IPv4 or IPv6 literal, or a name such as "localhost".
    public var host = ServerDefaults.host
    /// Port to bind; 0 lets the system pick a free one (read it back from `HTTPServer.port`).
    public var port = ServerDefaults.port
    /// Largest request body accepted; larger ones get 413 (before reading when declared).
    public var maxBodyBytes = ServerDefaults.maxBodyBytes
    /// Server threads, each with its own epoll loop; handlers run on them.
    public var threadCount = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    /// Most connections open at once (streams included); clamped to the process's file limit.
    public var connectionLimit = ServerDefaults.maxConnections
    /// Seconds an idle keep-alive connection is kept (streams leave libmicrohttpd after their head and never time out).
    public var connectionTimeoutSeconds = 60
    /// Per-connection memory for headers and read buffers. libmicrohttpd's default is 32 KiB; it
    /// zeroes this pool for every request, and idle streams hold it, so smaller is faster and
    /// leaner. Request headers must fit in roughly half of it.
    public var connectionMemoryLimit = 16 * 1024
    /// Seconds a request head (request line and header fields) may take from its first byte; a
    /// new connection's first head counts from its acceptance. Slower clients are disconnected.
    /// 0: no deadline.
    public var requestHeadTimeout = ServerDefaults.headerTimeoutSeconds
    /// Seconds a request body gets before `requestBodyMinimumRate` applies: a body must have
    /// arrived within this time plus one second per `requestBodyMinimumRate` bytes received.
    public var requestBodyTimeout = ServerDefaults.bodyTimeoutSeconds
    /// Bytes per second a request body must average after `requestBodyTimeout`; slower clients
    /// are disconnected. 0: no body deadline.
    public var requestBodyMinimumRate = ServerDefaults.bodyMinimumRate
    /// Most connections open at once from one client address (more are closed as they arrive);
    /// 0: no cap. nil: `ServerDefaults.maxConnectionsPerAddress` when bound to a non-loopback address, no cap on loopback (where every
    /// client, a local proxy included, has the same address).
    public var maxConnectionsPerAddress: Int?
    /// Largest request head in bytes (request line and header fields; again for the trailers of a
    /// chunked body); larger ones get 431 (414 for a request line alone). Keep it at most half of
    /// `connectionMemoryLimit`: libmicrohttpd keeps the head in that memory.
    public var maxRequestHeadBytes = 8 * 1024
    /// Most header fields in a request head (and trailer fields); more get 431.
    public var maxRequestHeaderFields = 64
    /// Streams idle this many seconds get their heartbeat bytes.
    public var heartbeatInterval = 15.0
    /// Origins whose browser code may call this server (CORS, see `CORSPolicy`); none by default.
    public var corsOrigins: [String] = []
    /// Log one line per request (method, target, status, duration) to standard error.
    public var logRequests = true
    /// Query items whose values never reach a log line (they read `name=REDACTED` there): secrets
    /// that travel in URLs, such as view-link keys. Header values are never logged at all.
    public var redactedQueryNames: Set<String> = ["key", "token", "access_token", "bearer"]

    public init() {}
}
