import CMicroHTTPD

/// A running libmicrohttpd daemon: started with the server's callbacks (`Callbacks.swift`) and
/// the framing guard in front of every connection.
struct MHDDaemon: @unchecked Sendable {
    /// What the daemon is started with.
    struct Settings {
        var address: BindAddress
        var threadCount: Int
        var connectionLimit: Int
        var connectionTimeoutSeconds: Int
        var connectionMemoryLimit: Int
    }

    let pointer: OpaquePointer

    /// Binds and starts the daemon's threads (one epoll loop per thread).
    ///
    /// Flags: `MHD_USE_TURBO` makes a connection's close a plain `close`, never a `shutdown`,
    /// so that a stream that detached keeps its socket working (`ResponseStream`); suspend and
    /// resume free a detached stream's connection at once (`MHDConnection.releaseAfterReader`).
    /// - Parameter server: the `HTTPServer` the callbacks forward to (retained by the caller
    ///   until `stop`).
    /// - Throws: `MHDError` when the address cannot be bound (port in use, no permission).
    ///
    /// The corresponding C function is `MHD_start_daemon` (through `CMicroHTTPD_start_daemon`).
    static func start(_ settings: Settings, framingGuard: FramingGuard, server: UnsafeMutableRawPointer) throws -> MHDDaemon {
        var flags =
            MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_TURBO.rawValue
            | MHD_USE_ERROR_LOG.rawValue
        if settings.address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let (acceptPolicy, acceptPolicyArgument) = framingGuard.acceptPolicy
        let pointer = settings.address.storage.withUnsafeBytes { sockaddrBytes -> OpaquePointer? in
            let options: [MHD_OptionItem] = [
                CMicroHTTPD_option_logger(mhdLogCallback, nil),
                framingGuard.option,
                CMicroHTTPD_option_sock_addr(sockaddrBytes.baseAddress!.assumingMemoryBound(to: sockaddr.self)),
                CMicroHTTPD_option_uint(.THREAD_POOL_SIZE, UInt32(max(1, settings.threadCount))),
                CMicroHTTPD_option_uint(.CONNECTION_LIMIT, UInt32(settings.connectionLimit)),
                CMicroHTTPD_option_uint(.CONNECTION_TIMEOUT, UInt32(settings.connectionTimeoutSeconds)),
                CMicroHTTPD_option_size(.CONNECTION_MEMORY_LIMIT, settings.connectionMemoryLimit),
                CMicroHTTPD_option_uri_log(uriLogCallback, server),
                CMicroHTTPD_option_unescape(keepEscapesCallback, nil),
                CMicroHTTPD_option_notify_completed(requestCompletedCallback, server),
                CMicroHTTPD_option_end(),
            ]
            return CMicroHTTPD_start_daemon(
                flags, UInt16(settings.address.port), acceptPolicy, acceptPolicyArgument,
                accessHandlerCallback, server, options)
        }
        return MHDDaemon(pointer: try mhdCall("MHD_start_daemon") { pointer })
    }

    /// The port the daemon is bound to (the real one when started on port 0), or 0 if unknown.
    ///
    /// The corresponding C function is `MHD_get_daemon_info` (through `CMicroHTTPD_daemon_bind_port`).
    var boundPort: Int { Int(CMicroHTTPD_daemon_bind_port(pointer)) }

    /// Closes every connection and waits for the daemon's threads.
    ///
    /// The corresponding C function is `MHD_stop_daemon`.
    func stop() { MHD_stop_daemon(pointer) }
}
