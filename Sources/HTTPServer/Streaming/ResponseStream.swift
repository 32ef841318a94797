import Dispatch
import ServerSupport
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The writing end of a streaming response: any thread may `write`; the bytes go out in order.
///
/// Once libmicrohttpd has sent the response head, the stream takes the socket over (it is
/// *detached*: libmicrohttpd frees its connection, memory pool and response, and the stream owns
/// a duplicate of the socket; see `ResponseStream+Server.swift`). From then on a write sends its
/// bytes to the socket itself, on the writer's thread, straight from the shared buffers it was
/// given: no copy, no wake-up of a server thread. Only what a full socket cannot take is queued
/// (as references), and sent by the server's socket thread when the socket is writable again.
/// Each write goes out as one HTTP/1.1 chunk (`ChunkFraming`), so a client sees every event as
/// soon as it arrives, whatever size it reads in; `finish` sends the last chunk. A stream to an
/// HTTP/1.0 client is close-delimited instead. Bytes written before the head is out are queued and
/// sent when the stream detaches.
///
/// A stream ends when the writer calls `finish` (after the buffered bytes are sent) or `cancel`
/// (at once, on the caller's clock, even while the client's socket is full), when the client goes
/// away (noticed at once through epoll, or else on the next write or heartbeat), or when the
/// server shuts down. `onTermination` handlers run once, when the stream's socket is closed (or
/// libmicrohttpd is done with a stream that never detached); unsubscribe there.
public final class ResponseStream: Sendable {
    struct State {
        var queue = OutgoingQueue()
        /// libmicrohttpd's socket until the stream detaches, then the stream's own; -1 when none
        /// (a stream not bound to a connection, in tests, or one that has ended).
        var socket: Int32 = -1
        /// libmicrohttpd's connection, until the stream detaches or ends.
        var connection: MHDConnection?
        /// Where the stream goes when it detaches (nil: it never does, in tests).
        var owner: StreamSockets?
        /// Set once the stream owns `socket` (detached from libmicrohttpd).
        var detached = false
        /// Writes are framed as HTTP/1.1 chunks (set when the stream is bound to an HTTP/1.1
        /// connection; a stream bound to none, in tests, writes its bytes as they are).
        var chunked = false
        /// The detached socket's registration with `owner` and its place in the connection caps.
        var watch: StreamSockets.Watch?
        var finished = false
        var cancelled = false
        var terminated = false
        var lastWrite: UInt64
        var terminationHandlers: [@Sendable () -> Void] = []

        var isOpen: Bool { !finished && !cancelled && !terminated }
    }

    let state: Mutex<State>
    let heartbeat: SharedBytes?

    package init(heartbeat: [UInt8]?) {
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
    public func write(_ parts: [SharedBytes], ifQueuedAtMost limit: Int?) -> StreamWriteResult {
        let payload = parts.reduce(0) { $0 + $1.count }
        return locked { state in
            let parts = state.chunked && payload > 0 ? ChunkFraming.framed(parts, count: payload) : parts
            let total = state.chunked && payload > 0 ? ChunkFraming.framedCount(payload) : payload
            return Self.write(&state, total, ifQueuedAtMost: limit) { socket in
                SocketSend.send(parts, skipping: 0, to: socket)
            } queue: { queue, sent in
                queue.append(parts, skipping: sent)
            }
        }
    }

    /// Sends one shared buffer, unless more than `limit` bytes wait in this stream already: the
    /// fan-out's call, one `send` and no allocation.
    public func write(_ bytes: SharedBytes, ifQueuedAtMost limit: Int?) -> StreamWriteResult {
        locked { state in
            if state.chunked && bytes.count > 0 { return Self.writeChunk(&state, bytes, ifQueuedAtMost: limit) }
            return Self.write(&state, bytes.count, ifQueuedAtMost: limit) { socket in
                SocketSend.send(bytes.base.pointer!, count: bytes.count, to: socket)
            } queue: { queue, sent in
                queue.append(bytes, skipping: sent)
            }
        }
    }

    /// A write of `total` bytes: sent by `send` straight to the socket when the stream is
    /// detached with nothing queued, else (and for what the socket did not take) queued by `queue`.
    private static func write(
        _ state: inout State, _ total: Int, ifQueuedAtMost limit: Int?,
        send: (Int32) -> SocketSend.Outcome, queue: (inout OutgoingQueue, Int) -> Void
    ) -> StreamWriteResult {
        guard state.isOpen else { return .closed }
        if let limit, state.queue.count > limit { return .behind }
        guard total > 0 else { return .written }
        state.lastWrite = monotonicNanoseconds()
        var sent = 0
        if state.detached && state.queue.isEmpty {
            switch send(state.socket) {
            case .sent(let count): sent = count
            case .failed:
                cancel(&state)
                return .closed
            }
            if sent == total { return .written }
        }
        // A partial send left the socket full: its writability wakes the socket thread (`flush`).
        queue(&state.queue, sent)
        return .written
    }

    /// `bytes` as one chunk. Up to `ChunkFraming.maxFramedCopy` bytes, the chunk is framed once
    /// for every stream that sends these bytes (`ChunkFraming.chunk(of:)`) and sent in one `send`;
    /// a larger one is sent from the bytes themselves, its head made on the stack, in one
    /// `sendmsg`. Only what the socket does not take is queued.
    private static func writeChunk(_ state: inout State, _ bytes: SharedBytes, ifQueuedAtMost limit: Int?) -> StreamWriteResult {
        if bytes.count <= ChunkFraming.maxFramedCopy {
            let chunk = ChunkFraming.chunk(of: bytes)
            return write(&state, chunk.count, ifQueuedAtMost: limit) { socket in
                SocketSend.send(chunk.base.pointer!, count: chunk.count, to: socket)
            } queue: { queue, sent in
                queue.append(chunk, skipping: sent)
            }
        }
        return ChunkFraming.withHead(bytes.count) { head in
            write(&state, ChunkFraming.framedCount(bytes.count), ifQueuedAtMost: limit) { socket in
                SocketSend.send(
                    [
                        head, UnsafeRawBufferPointer(start: bytes.base.pointer!, count: bytes.count),
                        ChunkFraming.lineEnd.buffer,
                    ], to: socket)
            } queue: { queue, sent in
                queue.append([SharedBytes(Array(head)), bytes, ChunkFraming.lineEnd], skipping: sent)
            }
        }
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
    public func finish() { finish(handlersHere: false) }

    /// `finish`; with `handlersHere`, a stream that ends at once runs its termination handlers
    /// before this returns (the caller holds no lock).
    func finish(handlersHere: Bool) {
        locked(handlersHere: handlersHere) { state in
            if state.chunked && state.isOpen {
                _ = Self.write(&state, ChunkFraming.lastChunk.count, ifQueuedAtMost: nil) { socket in
                    SocketSend.send(ChunkFraming.lastChunk.base.pointer!, count: ChunkFraming.lastChunk.count, to: socket)
                } queue: { queue, sent in
                    queue.append(ChunkFraming.lastChunk, skipping: sent)
                }
            }
            state.finished = true
            if state.detached && state.queue.isEmpty { Self.close(&state) }
        }
    }

    /// Ends the stream now, dropping queued bytes; the client sees the connection end abruptly.
    /// Takes effect at once, even while the client's socket is full.
    public func cancel() {
        locked { Self.cancel(&$0) }
    }

    /// `cancel`, with the termination handlers run before it returns (the caller holds no lock).
    func cancelNow() {
        locked(handlersHere: true) { Self.cancel(&$0) }
    }

    /// Bytes written but still held by this stream (not yet handed to the socket).
    public var bufferedByteCount: Int { state.withLock { $0.queue.count } }

    /// Bytes written that the client has not received yet: those held by this stream plus those
    /// in the socket's send buffer not yet acknowledged (a client that stopped reading leaves them
    /// there). 0 means the client has everything.
    public var unsentByteCount: Int {
        state.withLock { state in
            let inKernel = state.socket >= 0 ? StreamSocketCalls.unacknowledgedBytes(state.socket) : 0
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

    /// Runs `body` under the stream's lock, then the termination handlers if `body` ended the
    /// stream, outside the lock. They unsubscribe, which takes the hub's locks, so when a detached
    /// stream ends inside a writer's call (`write`, `finish`, `cancel`: the writer may hold those
    /// locks) they run on another thread, unless `handlersHere` (a caller that holds no lock).
    func locked<T>(handlersHere: Bool = false, _ body: (inout State) -> T) -> T {
        let (result, handlers, detached) = state.withLock { state -> (T, [@Sendable () -> Void], Bool) in
            let result = body(&state)
            guard state.terminated, !state.terminationHandlers.isEmpty else { return (result, [], false) }
            defer { state.terminationHandlers = [] }
            return (result, state.terminationHandlers, state.detached)
        }
        if handlers.isEmpty { return result }
        if detached && !handlersHere {
            DispatchQueue.global().async { for handler in handlers { handler() } }
        } else {
            for handler in handlers { handler() }
        }
        return result
    }

    /// Marks the stream cancelled and closes it now: a detached stream closes its socket; one
    /// still in libmicrohttpd's hands has its socket shut down, which libmicrohttpd notices at once.
    ///
    /// The corresponding C function is `shutdown`.
    static func cancel(_ state: inout State) {
        state.cancelled = true
        state.queue.removeAll()
        if state.detached {
            close(&state)
        } else if state.socket >= 0 && !state.terminated {
            _ = Glibc.shutdown(state.socket, Int32(SHUT_RDWR))
        }
    }
}
