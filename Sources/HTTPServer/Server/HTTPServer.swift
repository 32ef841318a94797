import CMicroHTTPD
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on GNU libmicrohttpd that answers requests with a `Router`.
///
/// Handlers run on the server's threads (one epoll loop per core), so they should not block for
/// long. Streaming responses leave libmicrohttpd once their head is sent (`ResponseStream`) and
/// cost no thread.
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

    /// The running libmicrohttpd daemon and the guard in front of it.
    struct Daemon: @unchecked Sendable {
        let pointer: OpaquePointer
        let port: Int
        let framingGuard: FramingGuard
    }

    /// The per-address connection cap in force: the configured one, else 256 off loopback.
    var connectionsPerAddress: Int {
        configuration.maxConnectionsPerAddress ?? (address.isLoopback ? 0 : 256)
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
    /// - Throws: `MHDError` when the address cannot be bound (port in use, no permission).
    ///
    /// The corresponding C function is `MHD_start_daemon` (through `CMicroHTTPD_start_daemon`).
    public func start() throws {
        let connectionLimit = min(configuration.connectionLimit, Self.fileDescriptorLimit() - 64)
        // TURBO: a connection's close is a plain `close`, never a `shutdown`, so that a stream
        // that detached keeps its socket working (`ResponseStream`); suspend and resume free a
        // detached stream's connection at once (`MHDConnection.releaseAfterReader`).
        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_TURBO.rawValue
            | MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let framingGuard = try FramingGuard(configuration: configuration, connectionsPerAddress: connectionsPerAddress,
                                            connectionLimit: max(16, connectionLimit)) { [metrics, configuration] result in
            metrics.slowRequestsClosed(heads: Int(result.slow_heads), bodies: Int(result.slow_bodies))
            Log.warning("closed slow connections: \(result.slow_heads) with a request head not complete within "
                     + "\(configuration.requestHeadTimeout) s, \(result.slow_bodies) with a body under "
                     + "\(configuration.requestBodyMinimumRate) bytes/s")
        }
        let sockets = try mhdCall("epoll_create1") { StreamSockets(framingGuard: framingGuard) }
        streamSockets.withLock { $0 = sockets }
        let (acceptPolicy, acceptPolicyArgument) = framingGuard.acceptPolicy
        let unmanagedSelf = Unmanaged.passRetained(self)
        let pointer = address.storage.withUnsafeBytes { sockaddrBytes -> OpaquePointer? in
            let options: [MHD_OptionItem] = [
                CMicroHTTPD_option_logger(mhdLogCallback, nil),
                framingGuard.option,
                CMicroHTTPD_option_sock_addr(sockaddrBytes.baseAddress!.assumingMemoryBound(to: sockaddr.self)),
                CMicroHTTPD_option_uint(.THREAD_POOL_SIZE, UInt32(max(1, configuration.threadCount))),
                CMicroHTTPD_option_uint(.CONNECTION_LIMIT, UInt32(max(16, connectionLimit))),
                CMicroHTTPD_option_uint(.CONNECTION_TIMEOUT, UInt32(configuration.connectionTimeoutSeconds)),
                CMicroHTTPD_option_size(.CONNECTION_MEMORY_LIMIT, configuration.connectionMemoryLimit),
                CMicroHTTPD_option_uri_log(uriLogCallback, unmanagedSelf.toOpaque()),
                CMicroHTTPD_option_unescape(keepEscapesCallback, nil),
                CMicroHTTPD_option_notify_completed(requestCompletedCallback, unmanagedSelf.toOpaque()),
                CMicroHTTPD_option_end(),
            ]
            return CMicroHTTPD_start_daemon(flags, UInt16(address.port), acceptPolicy, acceptPolicyArgument,
                                            accessHandlerCallback, unmanagedSelf.toOpaque(), options)
        }
        do {
            let started = try mhdCall("MHD_start_daemon") { pointer }
            let port = Int(CMicroHTTPD_daemon_bind_port(started))
            daemon.withLock { $0 = Daemon(pointer: started, port: port, framingGuard: framingGuard) }
        } catch {
            unmanagedSelf.release()
            streamSockets.withLock { $0 = nil }
            throw error
        }
        streams.startHeartbeats(interval: configuration.heartbeatInterval)
        sockets.start()
        framingGuard.startSweeping()
    }

    /// The port being served (the real one when configured with 0), or 0 before `start`.
    ///
    /// The corresponding C function is `MHD_get_daemon_info` (through `CMicroHTTPD_daemon_bind_port`).
    public var port: Int { daemon.withLock { $0?.port ?? 0 } }

    /// The base URL being served, e.g. "http://127.0.0.1:8080/".
    public var url: String { address.url(port: port) }

    /// True when only this machine can connect (a loopback address).
    public var isLoopback: Bool { address.isLoopback }

    /// Ends every open stream, then stops the daemon and waits for its threads. Idempotent.
    ///
    /// Streams are finished first (what their sockets take now is sent), then the daemon stops,
    /// then detached streams still open (a client not reading) are closed.
    ///
    /// The corresponding C function is `MHD_stop_daemon`.
    public func shutdown() {
        guard let running = daemon.withLock({ current -> Daemon? in defer { current = nil }; return current }) else {
            return
        }
        streams.closeAll()
        running.framingGuard.stopSweeping()
        MHD_stop_daemon(running.pointer)
        if let sockets = streamSockets.withLock({ current -> StreamSockets? in defer { current = nil }; return current }) {
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
