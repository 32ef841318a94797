import CMicroHTTPD

/// The socket calls of live streams that Swift cannot make itself (variadic `ioctl`, `fcntl`).
enum StreamSocketCalls {
    /// A second descriptor of `socket` (close-on-exec) that stays open when libmicrohttpd closes
    /// its own; -1 on error.
    ///
    /// The corresponding C function is `fcntl(F_DUPFD_CLOEXEC)` (through `CMicroHTTPD_socket_duplicate`).
    static func duplicate(_ socket: Int32) -> Int32 { CMicroHTTPD_socket_duplicate(socket) }

    /// Sets `TCP_NODELAY` (small events leave at once; anything held back is pushed out).
    ///
    /// The corresponding C function is `setsockopt` (through `CMicroHTTPD_socket_set_nodelay`).
    static func setNoDelay(_ socket: Int32) { _ = CMicroHTTPD_socket_set_nodelay(socket) }

    /// Bytes sent on `socket` that the peer has not acknowledged yet (0 on error).
    ///
    /// The corresponding C function is `ioctl(SIOCOUTQ)` (through `CMicroHTTPD_socket_unsent_bytes`).
    static func unacknowledgedBytes(_ socket: Int32) -> Int { max(0, Int(CMicroHTTPD_socket_unsent_bytes(socket))) }
}
