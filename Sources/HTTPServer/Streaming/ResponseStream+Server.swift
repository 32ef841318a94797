import CMicroHTTPD

extension ResponseStream {
    /// Binds the stream to the connection it is queued on and its socket (-1 if unknown: then
    /// every byte goes through libmicrohttpd).
    func attach(to connection: OpaquePointer, socket: Int32) {
        let handle = ConnectionHandle(pointer: connection)
        if socket >= 0 { _ = CMicroHTTPD_socket_set_nodelay(socket) }
        state.withLock { state in
            state.connection = handle
            state.socket = socket
        }
    }

    /// The content reader, on the connection's server thread. libmicrohttpd calls it once the
    /// response head and every byte handed to it before are in the socket. Queued bytes are sent
    /// straight to the socket; what the socket cannot take yet is copied into `buffer` (up to
    /// `max`), which libmicrohttpd sends when the socket is writable, then asks again. With
    /// nothing queued, the connection is suspended.
    ///
    /// The corresponding C function is `MHD_suspend_connection`.
    func read(into buffer: UnsafeMutableRawPointer, max: Int) -> Int {
        let buffer = ConnectionHandle.Buffer(pointer: buffer)
        return state.withLock { state in
            state.started = true
            if state.cancelled { return CMicroHTTPD_CONTENT_READER_END_WITH_ERROR }
            if !state.queue.isEmpty {
                if state.socket >= 0, case .failed = state.queue.send(to: state.socket) {
                    state.cancelled = true
                    state.queue.removeAll()
                    return CMicroHTTPD_CONTENT_READER_END_WITH_ERROR
                }
                if !state.queue.isEmpty { return state.queue.copy(into: buffer.pointer, max: max) }
            }
            if state.finished || state.connection == nil { return CMicroHTTPD_CONTENT_READER_END_OF_STREAM }
            state.suspended = true
            MHD_suspend_connection(state.connection!.pointer)
            return 0
        }
    }

    /// Writes the heartbeat if nothing was written for `idleNanoseconds`.
    func heartbeatIfIdle(now: UInt64, idleNanoseconds: UInt64) {
        guard let heartbeat else { return }
        let idle = state.withLock { now &- $0.lastWrite >= idleNanoseconds }
        if idle { write([heartbeat]) }
    }

    /// Called when the connection has released the stream: runs the termination handlers.
    func terminated() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            state.terminated = true
            state.connection = nil
            state.socket = -1
            state.suspended = false
            state.queue.removeAll()
            defer { state.terminationHandlers.removeAll() }
            return state.terminationHandlers
        }
        for handler in handlers { handler() }
    }
}
