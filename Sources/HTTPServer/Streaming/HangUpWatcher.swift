import CMicroHTTPD
import Foundation
import Synchronization

/// Notices at once when a client hangs up on a stream whose connection is suspended (idle),
/// instead of at the next heartbeat, so its subscription and slot are freed within moments.
///
/// Watches each stream's socket with epoll for `EPOLLRDHUP` (the peer closed or shut down its
/// sending side; an event-stream client sends nothing after its request) and cancels the
/// stream, which makes libmicrohttpd close the connection.
final class HangUpWatcher: Sendable {
    private struct Watch {
        let stream: ResponseStream
        let socket: Int32
    }

    private let epoll: Int32
    private let watches = Mutex<[UInt64: Watch]>([:])
    private let nextToken = Atomic<UInt64>(1)
    private let stopped = Atomic<Bool>(false)

    /// A watcher, or nil when epoll is unavailable (streams are then ended by heartbeats alone).
    ///
    /// The corresponding C function is `epoll_create1`.
    init?() {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        if epoll < 0 { return nil }
    }

    deinit { close(epoll) }

    /// Starts watching `socket` for `stream`; returns the token to pass to `unwatch`, or nil.
    ///
    /// The corresponding C function is `epoll_ctl`.
    func watch(_ stream: ResponseStream, socket: Int32) -> UInt64? {
        let token = nextToken.add(1, ordering: .relaxed).oldValue
        watches.withLock { $0[token] = Watch(stream: stream, socket: socket) }
        // One shot: a hang-up is reported once, and a dead socket cannot make the thread spin.
        var event = epoll_event()
        event.events = EPOLLRDHUP.rawValue | EPOLLONESHOT.rawValue
        event.data.u64 = token
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) == 0 else {
            _ = watches.withLock { $0.removeValue(forKey: token) }
            return nil
        }
        return token
    }

    /// Stops watching; call it before the socket can be closed (from the stream's termination,
    /// which libmicrohttpd runs before it closes the connection's socket).
    func unwatch(_ token: UInt64) {
        guard let watch = watches.withLock({ $0.removeValue(forKey: token) }) else { return }
        var unused = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, watch.socket, &unused)
    }

    /// Starts the thread that waits for hang-ups; it checks for `stop()` twice a second.
    ///
    /// The corresponding C function is `epoll_wait`.
    func start() {
        let thread = Thread { [self] in
            var events = [epoll_event](repeating: epoll_event(), count: 64)
            while !stopped.load(ordering: .relaxed) {
                let count = events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, 64, 500) }
                guard count > 0 else { continue }
                for event in events[0..<Int(count)] {
                    let token = event.data.u64
                    // No EPOLL_CTL_DEL here: the one-shot registration is disarmed already and
                    // goes with the socket when libmicrohttpd closes it. Deleting from this thread
                    // could race with that close and remove a new connection's registration.
                    guard let watch = watches.withLock({ $0.removeValue(forKey: token) }) else { continue }
                    watch.stream.cancel()
                }
            }
        }
        thread.name = "hang-ups"
        thread.start()
    }

    /// Ends the waiting thread within half a second.
    func stop() { stopped.store(true, ordering: .relaxed) }
}
