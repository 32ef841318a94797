import CMicroHTTPD
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The writing end of a streaming response: any thread may `write`; the bytes go out in order.
///
/// While the connection is idle it is suspended in libmicrohttpd (no CPU, no polling), and a
/// write sends its bytes to the socket itself, on the writer's thread, straight from the shared
/// buffers it was given: no copy, no wake-up of a server thread. Only when the socket's buffer is
/// full are the rest queued (as references) and the connection resumed, so that libmicrohttpd
/// waits for the socket and asks for them again (`read`). The body is close-delimited (no
/// chunked framing), which is what lets the bytes take either way.
///
/// A stream ends when the writer calls `finish` (after the buffered bytes are sent) or `cancel`
/// (at once, on the caller's clock: a suspended connection is resumed to close, one waiting on a
/// full socket is shut down), when the client goes away (noticed at once through epoll, or else
/// on the next write or heartbeat), or when the server shuts down. `onTermination` handlers run
/// once, when the connection is done with the stream; unsubscribe there.
public final class ResponseStream: Sendable {
    struct State {
        var queue = OutgoingQueue()
        var connection: ConnectionHandle?
        /// The connection's socket, or -1 (a stream not bound to a connection, in tests).
        var socket: Int32 = -1
        /// Set once libmicrohttpd first asked for bytes: the response head is out.
        var started = false
        var suspended = false
        var finished = false
        var cancelled = false
        var terminated = false
        var lastWrite: UInt64
        var terminationHandlers: [@Sendable () -> Void] = []

        var isOpen: Bool { !finished && !cancelled && !terminated }
    }

    /// What became of a conditional write (`write(_:ifQueuedAtMost:)`).
    public enum WriteResult: Sendable, Equatable {
        /// Sent, or queued behind bytes being sent.
        case written
        /// Not written: more than the limit is queued already (a slow client).
        case behind
        /// Not written: the stream has ended.
        case closed
    }

    let state: Mutex<State>
    let heartbeat: SharedBytes?

    init(heartbeat: [UInt8]?) {
        self.heartbeat = heartbeat.map(SharedBytes.init)
        state = Mutex(State(lastWrite: monotonicNanoseconds()))
    }

    /// Sends `parts` in order after everything written before.
    /// - Returns: false when the stream has ended (finished, cancelled, client gone, shutdown);
    ///   the bytes are dropped then.
    @discardableResult
    public func write(_ parts: [SharedBytes]) -> Bool {
        write(parts, ifQueuedAtMost: nil) == .written
    }

    /// Sends `parts`, unless more than `limit` bytes wait in this stream already (nil: no limit).
    public func write(_ parts: [SharedBytes], ifQueuedAtMost limit: Int?) -> WriteResult {
        state.withLock { state in
            Self.write(&state, parts.reduce(0) { $0 + $1.count }, ifQueuedAtMost: limit) { socket in
                SocketSend.send(parts, skipping: 0, to: socket)
            } queue: { queue, sent in
                queue.append(parts, skipping: sent)
            }
        }
    }

    /// Sends one shared buffer, unless more than `limit` bytes wait in this stream already: the
    /// fan-out's call, one `send` and no allocation.
    public func write(_ bytes: SharedBytes, ifQueuedAtMost limit: Int?) -> WriteResult {
        state.withLock { state in
            Self.write(&state, bytes.count, ifQueuedAtMost: limit) { socket in
                SocketSend.send(bytes.base.pointer!, count: bytes.count, to: socket)
            } queue: { queue, sent in
                queue.append(bytes, skipping: sent)
            }
        }
    }

    /// A write of `total` bytes: sent by `send` straight to the socket when the connection is
    /// suspended with nothing queued, else (and for what the socket did not take) queued by
    /// `queue`, waking the connection.
    private static func write(
        _ state: inout State, _ total: Int, ifQueuedAtMost limit: Int?,
        send: (Int32) -> SocketSend.Outcome, queue: (inout OutgoingQueue, Int) -> Void
    ) -> WriteResult {
        guard state.isOpen else { return .closed }
        if let limit, state.queue.count > limit { return .behind }
        guard total > 0 else { return .written }
        state.lastWrite = monotonicNanoseconds()
        var sent = 0
        if state.suspended && state.queue.isEmpty && state.socket >= 0 {
            switch send(state.socket) {
            case .sent(let count): sent = count
            case .failed:
                cancel(&state)
                return .closed
            }
            if sent == total { return .written }
        }
        queue(&state.queue, sent)
        wake(&state)
        return .written
    }

    /// Sends one shared buffer. See `write(_:)`.
    @discardableResult
    public func write(_ bytes: SharedBytes) -> Bool { write(bytes, ifQueuedAtMost: nil) == .written }

    /// Sends bytes (kept as they are, not copied). See `write(_:)`.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool { write([SharedBytes(bytes)]) }

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

    /// Ends the stream now, dropping queued bytes; the client sees the connection end abruptly.
    /// Takes effect at once, even while the client's socket is full.
    public func cancel() {
        state.withLock { Self.cancel(&$0) }
    }

    /// Bytes written but still held by this stream (not yet handed to the socket).
    public var bufferedByteCount: Int { state.withLock { $0.queue.count } }

    /// Bytes written that the client has not received yet: those held by this stream plus those
    /// in the socket's send buffer not yet acknowledged (a client that stopped reading leaves them
    /// there). 0 means the client has everything.
    public var unsentByteCount: Int {
        state.withLock { state in
            let inKernel = state.socket >= 0 && !state.terminated ? max(0, Int(CMicroHTTPD_socket_unsent_bytes(state.socket))) : 0
            return state.queue.count + inKernel
        }
    }

    /// True until the stream has ended for any reason.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Runs `handler` once when the connection is done with this stream (at once if it already is).
    public func onTermination(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.terminated { return true }
            state.terminationHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// Marks the stream cancelled and makes libmicrohttpd close the connection now: a suspended
    /// connection is resumed (its reader answers an error); one that waits on a full socket is
    /// shut down, which its epoll reports at once.
    ///
    /// The corresponding C function is `shutdown`.
    static func cancel(_ state: inout State) {
        state.cancelled = true
        state.queue.removeAll()
        if state.suspended {
            wake(&state)
        } else if state.socket >= 0 && !state.terminated {
            _ = Glibc.shutdown(state.socket, Int32(SHUT_RDWR))
        }
    }

    /// Resumes the connection if (and only if) it is suspended; resuming one that is not is undefined.
    ///
    /// The corresponding C function is `MHD_resume_connection`.
    static func wake(_ state: inout State) {
        guard state.suspended, let connection = state.connection else { return }
        state.suspended = false
        MHD_resume_connection(connection.pointer)
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
