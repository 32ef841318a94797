import ServerSupport

#if canImport(Glibc)
import Glibc
#endif

extension ResponseStream {
    /// Binds the stream to libmicrohttpd's connection and to `owner`, which takes it over once
    /// the head is sent; with `chunked`, each write is framed as a chunk.
    func attach(to connection: MHDConnection, owner: StreamSockets?, chunked: Bool) {
        let socket = connection.socket
        state.withLock { state in
            state.chunked = chunked
            state.connection = connection
            state.socket = socket
            state.owner = owner
        }
    }

    /// The content reader, on the connection's server thread: libmicrohttpd calls it once, when
    /// the response head is in the socket. The stream then detaches: it takes a duplicate of the
    /// socket, sends what was written so far, registers with its owner's socket thread, and
    /// answers end-of-stream (for a chunked body, an error: see `detach`), so libmicrohttpd frees the connection (it closes only its own
    /// descriptor: the daemon runs with `MHD_USE_TURBO`, which skips the `shutdown`). A stream
    /// that ended before its head went out, or cannot detach, ends here. A stream bound to no
    /// connection hands over up to `max` queued bytes per call, then end-of-stream.
    package func read(into buffer: UnsafeMutableRawPointer, max: Int) -> Int {
        locked { state in
            if state.cancelled { return ContentReader.endWithError }
            if state.finished && state.queue.isEmpty { return ContentReader.endOfStream }
            guard let owner = state.owner, let connection = state.connection, state.socket >= 0, !state.detached else {
                // Not bound to a connection (tests read it this way): hands over what is queued.
                if !state.queue.isEmpty { return state.queue.copy(into: buffer, max: max) }
                return ContentReader.endOfStream
            }
            let result = Self.detach(&state, self, owner: owner)
            if state.detached { connection.releaseAfterReader() }
            return result
        }
    }

    /// See `read`. `TCP_NODELAY` also pushes out a head libmicrohttpd sent with `MSG_MORE`.
    private static func detach(_ state: inout State, _ stream: ResponseStream, owner: StreamSockets) -> Int {
        let own = StreamSocketCalls.duplicate(state.socket)
        guard own >= 0 else {
            Log.warning("a stream ends before its first event: cannot duplicate its socket (errno \(errno))")
            state.cancelled = true
            state.queue.removeAll()
            return ContentReader.endWithError
        }
        StreamSocketCalls.setNoDelay(own)
        let count = owner.takeCount(ofSocket: state.socket)
        guard let watch = owner.watch(stream, socket: own, count: count) else {
            Log.warning("a stream ends before its first event: the stream thread cannot watch its socket")
            owner.release(count)
            _ = Glibc.close(own)
            state.cancelled = true
            state.queue.removeAll()
            return ContentReader.endWithError
        }
        state.socket = own
        state.connection = nil
        state.detached = true
        state.watch = watch
        flush(&state)
        // A chunked body is the stream's to end (with its last chunk): libmicrohttpd, told the
        // body ended, would send a last chunk of its own. Told of an error, it sends nothing and
        // just closes its descriptor.
        return state.chunked ? ContentReader.endWithError : ContentReader.endOfStream
    }

    /// Sends queued bytes as far as the socket takes them (the socket thread calls it when the
    /// socket is writable again), and closes a finished stream once all is sent.
    func flush() {
        locked(handlersHere: true) { Self.flush(&$0) }
    }

    private static func flush(_ state: inout State) {
        guard state.detached, state.socket >= 0 else { return }
        if !state.queue.isEmpty, case .failed = state.queue.send(to: state.socket) {
            cancel(&state)
            return
        }
        if state.finished && state.queue.isEmpty { close(&state) }
    }

    /// Closes a detached stream's socket (unregistered first, so no event or new socket can be
    /// mistaken for it) and marks the stream terminated; `locked` runs its handlers.
    ///
    /// The corresponding C function is `close`.
    static func close(_ state: inout State) {
        guard state.detached, state.socket >= 0 else { return }
        if let watch = state.watch { state.owner?.unwatch(watch, socket: state.socket) }
        _ = Glibc.close(state.socket)
        state.socket = -1
        state.watch = nil
        state.owner = nil
        state.queue.removeAll()
        state.terminated = true
    }

    /// Writes the heartbeat if nothing was written for `idleNanoseconds` before `now`. A write
    /// after `now` (another thread's, while the heartbeat pass went through the streams) is not idle.
    func heartbeatIfIdle(now: UInt64, idleNanoseconds: UInt64) {
        guard let heartbeat else { return }
        let idle = state.withLock { now >= $0.lastWrite && now - $0.lastWrite >= idleNanoseconds }
        if idle { write([heartbeat]) }
    }

    /// Called when libmicrohttpd frees the response: a stream that never detached is over (its
    /// handlers run); a detached one goes on with its own socket.
    func terminated() {
        locked { state in
            guard !state.detached else { return }
            state.terminated = true
            state.socket = -1
            state.connection = nil
            state.owner = nil
            state.queue.removeAll()
        }
    }
}
