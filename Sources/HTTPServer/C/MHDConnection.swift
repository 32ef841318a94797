import CMicroHTTPD

/// A libmicrohttpd connection pointer, kept by the stream bound to it and used only on the
/// connection's thread (from its content reader).
struct MHDConnection: @unchecked Sendable {
    let pointer: OpaquePointer

    /// The connection's socket, or -1 if unknown.
    ///
    /// The corresponding C function is `MHD_get_connection_info` (through `CMicroHTTPD_connection_fd`).
    var socket: Int32 { CMicroHTTPD_connection_fd(pointer) }

    /// Makes libmicrohttpd free this connection as soon as the content reader that calls this
    /// returns end-of-stream, instead of when its socket next shows activity.
    ///
    /// libmicrohttpd 0.9.75 closes a connection whose reader ends the stream, but only takes it
    /// out (closing its descriptor) on the connection's next event or timeout; a detached stream's
    /// socket shows none, so libmicrohttpd would keep its descriptor (and the client would not see
    /// the end of the stream) for up to the 60 s idle timeout. Suspended and resumed at once, the
    /// connection is handled again on the daemon's next turn, which is woken for it.
    ///
    /// The corresponding C functions are `MHD_suspend_connection` and `MHD_resume_connection`.
    func releaseAfterReader() {
        MHD_suspend_connection(pointer)
        MHD_resume_connection(pointer)
    }
}
