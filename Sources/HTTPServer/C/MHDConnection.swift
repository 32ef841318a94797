import CMicroHTTPD

/// A libmicrohttpd connection, as its callbacks hand it over: used on the connection's thread
/// only (the access handler, a stream's content reader).
struct MHDConnection: @unchecked Sendable {
    let pointer: OpaquePointer

    /// The connection's socket, or -1 if unknown.
    ///
    /// The corresponding C function is `MHD_get_connection_info` (through `CMicroHTTPD_connection_fd`).
    var socket: Int32 { CMicroHTTPD_connection_fd(pointer) }

    /// The first request header field of that name (case-insensitive), or nil.
    ///
    /// The corresponding C function is `MHD_lookup_connection_value`.
    func header(_ name: String) -> String? {
        MHD_lookup_connection_value(pointer, .HEADER_KIND, name).map { String(cString: $0) }
    }

    /// The first trailer field (after a chunked body) of that name, or nil.
    ///
    /// The corresponding C function is `MHD_lookup_connection_value`.
    func trailer(_ name: String) -> String? {
        MHD_lookup_connection_value(pointer, .FOOTER_KIND, name).map { String(cString: $0) }
    }

    /// Every request header field, in order, repeats included.
    ///
    /// The corresponding C function is `MHD_get_connection_values`.
    func headers() -> HTTPHeaders {
        var headers = HTTPHeaders()
        withUnsafeMutablePointer(to: &headers) { headers in
            _ = MHD_get_connection_values(pointer, .HEADER_KIND, headerIteratorCallback, headers)
        }
        return headers
    }

    /// Queues a response on the connection (libmicrohttpd keeps its own reference).
    /// - Throws: `MHDError` when libmicrohttpd refuses it (the connection is then closed).
    ///
    /// The corresponding C function is `MHD_queue_response`.
    func queue(_ response: OpaquePointer, status: Int) throws {
        try mhdCall("MHD_queue_response") { MHD_queue_response(pointer, UInt32(status), response) }
    }

    /// Stops libmicrohttpd from handling this connection until `resume`; called from the access
    /// handler. Suspended connections do not time out.
    ///
    /// The corresponding C function is `MHD_suspend_connection`.
    func suspend() { MHD_suspend_connection(pointer) }

    /// Lets libmicrohttpd handle a suspended connection again (from any thread); it then calls the
    /// access handler again. Must follow `suspend` exactly once.
    ///
    /// The corresponding C function is `MHD_resume_connection`.
    func resume() { MHD_resume_connection(pointer) }

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

/// What a content reader answers besides a byte count.
enum ContentReader {
    /// No more data: libmicrohttpd ends the response normally (`MHD_CONTENT_READER_END_OF_STREAM`).
    static let endOfStream = CMicroHTTPD_CONTENT_READER_END_OF_STREAM
    /// Abort the response and close the connection (`MHD_CONTENT_READER_END_WITH_ERROR`).
    static let endWithError = CMicroHTTPD_CONTENT_READER_END_WITH_ERROR
}
