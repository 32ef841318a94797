import CMicroHTTPD
import Synchronization

/// The writing end of a streaming response: any thread may `write`; the server sends the bytes
/// in order and suspends the connection (no CPU, no polling) while nothing is buffered.
///
/// A stream ends when the writer calls `finish` (after the buffered bytes are sent) or `cancel`,
/// when the client goes away (noticed at once through epoll, or else on the next write or
/// heartbeat), or when the server shuts
/// down. `onTermination` handlers run once, when the connection is done with the stream;
/// unsubscribe there.
public final class ResponseStream: Sendable {
    struct State {
        var chunks: [[UInt8]] = []
        var head = 0
        var offset = 0
        var buffered = 0
        var connection: ConnectionHandle?
        var suspended = false
        var finished = false
        var cancelled = false
        var terminated = false
        var lastWrite: UInt64
        var terminationHandlers: [@Sendable () -> Void] = []
    }

    private let state: Mutex<State>
    let heartbeat: [UInt8]?

    init(heartbeat: [UInt8]?) {
        self.heartbeat = heartbeat
        state = Mutex(State(lastWrite: monotonicNanoseconds()))
    }

    /// Appends bytes to send and wakes the connection. Chunks are kept as given, so the same
    /// array written to many streams is stored once.
    /// - Returns: false when the stream has ended (finished, cancelled, client gone, shutdown);
    ///   the bytes are dropped then.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.finished, !state.cancelled, !state.terminated else { return false }
            guard !bytes.isEmpty else { return true }
            state.chunks.append(bytes)
            state.buffered += bytes.count
            state.lastWrite = monotonicNanoseconds()
            Self.wake(&state)
            return true
        }
    }

    /// Writes the UTF-8 bytes of `text`. See `write(_:)`.
    @discardableResult
    public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Ends the stream once the bytes written so far have been sent.
    public func finish() {
        state.withLock { state in
            state.finished = true
            Self.wake(&state)
        }
    }

    /// Ends the stream now, dropping buffered bytes; the client sees the connection end abruptly.
    public func cancel() {
        state.withLock { state in
            state.cancelled = true
            state.chunks.removeAll()
            state.head = 0
            state.offset = 0
            state.buffered = 0
            Self.wake(&state)
        }
    }

    /// Bytes written but not yet handed to the socket: a growing number means a slow client.
    public var bufferedByteCount: Int { state.withLock { $0.buffered } }

    /// True until the stream has ended for any reason.
    public var isOpen: Bool { state.withLock { !$0.finished && !$0.cancelled && !$0.terminated } }

    /// Runs `handler` once when the connection is done with this stream (at once if it already is).
    public func onTermination(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.terminated { return true }
            state.terminationHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    // MARK: - Server side

    /// Binds the stream to the connection it is queued on.
    func attach(to connection: OpaquePointer) {
        let handle = ConnectionHandle(pointer: connection)
        state.withLock { $0.connection = handle }
    }

    /// The content reader: copies buffered bytes, or suspends the connection when there are none.
    /// Runs on the connection's server thread.
    ///
    /// The corresponding C function is `MHD_suspend_connection`.
    func read(into buffer: UnsafeMutableRawPointer, max: Int) -> Int {
        let buffer = ConnectionHandle.Buffer(pointer: buffer)
        return state.withLock { state in
            if state.cancelled { return CMicroHTTPD_CONTENT_READER_END_WITH_ERROR }
            if state.buffered > 0 { return Self.copy(&state, into: buffer, max: max) }
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
        if idle { write(heartbeat) }
    }

    /// Called when the connection has released the stream: runs the termination handlers.
    func terminated() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            state.terminated = true
            state.connection = nil
            state.suspended = false
            state.chunks.removeAll()
            state.buffered = 0
            defer { state.terminationHandlers.removeAll() }
            return state.terminationHandlers
        }
        for handler in handlers { handler() }
    }

    /// Resumes the connection if (and only if) it is suspended; resuming one that is not is undefined.
    ///
    /// The corresponding C function is `MHD_resume_connection`.
    private static func wake(_ state: inout State) {
        guard state.suspended, let connection = state.connection else { return }
        state.suspended = false
        MHD_resume_connection(connection.pointer)
    }

    private static func copy(_ state: inout State, into destination: ConnectionHandle.Buffer, max: Int) -> Int {
        let buffer = destination.pointer
        var copied = 0
        while copied < max && state.head < state.chunks.count {
            let chunk = state.chunks[state.head]
            let count = min(chunk.count - state.offset, max - copied)
            chunk.withUnsafeBytes { bytes in
                (buffer + copied).copyMemory(from: bytes.baseAddress! + state.offset, byteCount: count)
            }
            copied += count
            state.offset += count
            if state.offset == chunk.count {
                state.chunks[state.head] = []
                state.head += 1
                state.offset = 0
            }
        }
        if state.head == state.chunks.count {
            state.chunks.removeAll(keepingCapacity: true)
            state.head = 0
        } else if state.head > 64 {
            state.chunks.removeFirst(state.head)
            state.head = 0
        }
        state.buffered -= copied
        return copied
    }
}

/// A libmicrohttpd connection pointer, kept under the stream's lock and used only from there.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    /// The content reader's output buffer, valid for the duration of one reader call.
    struct Buffer: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }
}
