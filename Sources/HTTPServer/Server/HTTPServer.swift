import Dispatch
import ServerSupport
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on GNU libmicrohttpd that answers requests with a `Router`.
///
/// Reads are answered on the server's threads (one epoll loop per core), so their handlers should
/// not block for long; writes (POST, PUT, PATCH, DELETE) run on a queue of their own, so a long
/// one holds up no other connection (`HTTPServer+Offload`). Streaming responses leave
/// libmicrohttpd once their head is sent (`ResponseStream`) and cost no thread.
///
/// ```swift
/// let server = HTTPServer(configuration: configuration, router: router)
/// try server.start()
/// print("listening on \(server.url)")
/// // ... later, from any thread:
/// server.shutdown()
/// ```
public final class HTTPServer: Sendable {
    public let configuration: ServerConfiguration
    public let metrics: ServerMetrics
    let router: Router
    /// Cross-origin access (`ServerConfiguration.corsOrigins`).
    let cors: CORSPolicy
    let streams = StreamRegistry()
    /// The sockets of detached streams, set while the server runs.
    let streamSockets = Mutex<StreamSockets?>(nil)
    private let address: BindAddress
    private let daemon = Mutex<Daemon?>(nil)
    /// Handlers running off libmicrohttpd's threads (`HTTPServer+Offload`), awaited at shutdown.
    let handlersInFlight = DispatchGroup()
    /// The 304s of `Response.validated` answers already sent.
    let notModifiedMemo = NotModifiedMemo()

    /// The running libmicrohttpd daemon and the guard in front of it.
    struct Daemon: Sendable {
        let mhd: MHDDaemon
        let port: Int
        let framingGuard: FramingGuard
    }

    /// The per-address connection cap in force: the configured one, else the default off loopback.
    var connectionsPerAddress: Int {
        configuration.maxConnectionsPerAddress ?? (address.isLoopback ? 0 : ServerDefaults.maxConnectionsPerAddress)
    }

    /// Prepares a server; nothing listens until `start`.
    /// - Throws: `BindAddressError` when the configured host does not resolve.
    /// - Parameter metrics: where to count responses and streams (pass one to render it in a route).
    public init(configuration: ServerConfiguration, router: Router, metrics: ServerMetrics = ServerMetrics()) throws {
        self.configuration = configuration
        self.metrics = metrics
        self.router = router
        self.cors = CORSPolicy(origins: configuration.corsOrigins)
        self.address = try BindAddress(host: configuration.host, port: configuration.port)
    }

    /// Binds and starts serving on background threads.
    /// - Throws: `BindFailure` when the address cannot be bound (port in use, no permission),
    ///   with the system's reason; `MHDError` when libmicrohttpd fails otherwise.
    public func start() throws {
        HeapTrim.mapLargeAllocations()
        let connectionLimit = min(configuration.connectionLimit, Self.fileDescriptorLimit() - 64)
        let framingGuard = try FramingGuard(
            configuration: configuration, connectionsPerAddress: connectionsPerAddress,
            connectionLimit: max(16, connectionLimit)
        ) { [metrics, configuration] result in
            metrics.slowRequestsClosed(heads: Int(result.slow_heads), bodies: Int(result.slow_bodies))
            Log.warning(
                "closed slow connections: \(result.slow_heads) with a request head not complete within "
                    + "\(configuration.requestHeadTimeout) s, \(result.slow_bodies) with a body under "
                    + "\(configuration.requestBodyMinimumRate) bytes/s")
        }
        let sockets = try mhdCall("epoll_create1") { StreamSockets(framingGuard: framingGuard) }
        streamSockets.withLock { $0 = sockets }
        let unmanagedSelf = Unmanaged.passRetained(self)
        do {
            let settings = MHDDaemon.Settings(
                address: address, threadCount: configuration.threadCount, connectionLimit: max(16, connectionLimit),
                connectionTimeoutSeconds: configuration.connectionTimeoutSeconds,
                connectionMemoryLimit: configuration.connectionMemoryLimit)
            let started = try MHDDaemon.start(settings, framingGuard: framingGuard, server: unmanagedSelf.toOpaque())
            daemon.withLock { $0 = Daemon(mhd: started, port: started.boundPort, framingGuard: framingGuard) }
        } catch {
            unmanagedSelf.release()
            streamSockets.withLock { $0 = nil }
            if let reason = address.bindFailure() { throw BindFailure(url: address.url(port: address.port), reason: reason) }
            throw error
        }
        streams.startHeartbeats(interval: configuration.heartbeatInterval)
        sockets.start()
        framingGuard.startSweeping()
    }

    /// The port being served (the real one when configured with 0), or 0 before `start`.
    public var port: Int { daemon.withLock { $0?.port ?? 0 } }

    /// The base URL being served, e.g. "http://127.0.0.1:8080/".
    public var url: String { address.url(port: port) }

    /// True when only this machine can connect (a loopback address).
    public var isLoopback: Bool { address.isLoopback }

    /// Ends every open stream, then stops the daemon and waits for its threads. Idempotent.
    ///
    /// Streams are finished first (what their sockets take now is sent), then the daemon stops,
    /// then detached streams still open (a client not reading) are closed.
    public func shutdown() {
        guard
            let running = daemon.withLock({ current -> Daemon? in
                defer { current = nil }
                return current
            })
        else {
            return
        }
        streams.closeAll()
        running.framingGuard.stopSweeping()
        waitForOffloadedHandlers(seconds: 30)
        running.mhd.stop()
        if let sockets = streamSockets.withLock({ current -> StreamSockets? in
            defer { current = nil }
            return current
        }) {
            sockets.cancelAll()
            sockets.stop()
        }
        Unmanaged.passUnretained(self).release()
    }

    private static func fileDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return limit.rlim_cur == rlim_t.max ? 1 << 20 : Int(limit.rlim_cur)
    }
}
