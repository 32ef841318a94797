import CMicroHTTPD
import Foundation
import Synchronization

/// The sockets of detached streams (see `ResponseStream`): one epoll thread that tells a stream
/// when its client hung up (`EPOLLRDHUP`: cancelled at once, even while idle) and when its full
/// socket can take more (`EPOLLOUT`, edge-triggered: the stream sends what it queued). Each
/// detached stream also keeps its connection's place in the connection caps (`FramingGuard`)
/// until its socket closes.
final class StreamSockets: Sendable {
    /// One detached stream's registration.
    struct Watch: @unchecked Sendable {
        let token: UInt64
        /// Its count in the connection caps (`FramingGuard.detach`), or nil.
        let count: OpaquePointer?
    }

    private let epoll: Int32
    private let framingGuard: FramingGuard
    private let streams = Mutex<[UInt64: ResponseStream]>([:])
    private let nextToken = Atomic<UInt64>(1)
    private let stopped = Atomic<Bool>(false)

    /// The sockets of one daemon's streams, or nil when epoll is unavailable.
    ///
    /// The corresponding C function is `epoll_create1`.
    init?(framingGuard: FramingGuard) {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        if epoll < 0 { return nil }
        self.framingGuard = framingGuard
    }

    deinit { close(epoll) }

    /// Streams detached and not yet closed.
    var count: Int { streams.withLock { $0.count } }

    /// Takes libmicrohttpd's connection on `socket` out of the caps' count, to be carried by
    /// the stream that detaches it (on the connection's thread).
    func takeCount(ofSocket socket: Int32) -> OpaquePointer? { framingGuard.detach(socket: socket) }

    /// Gives back a count taken by `takeCount`.
    func release(_ count: OpaquePointer?) { framingGuard.releaseDetached(count) }

    /// Starts watching a detached stream's own `socket`; nil if epoll refuses it.
    ///
    /// The corresponding C function is `epoll_ctl`.
    func watch(_ stream: ResponseStream, socket: Int32, count: OpaquePointer?) -> Watch? {
        let token = nextToken.add(1, ordering: .relaxed).oldValue
        streams.withLock { $0[token] = stream }
        var event = epoll_event()
        event.events = EPOLLRDHUP.rawValue | EPOLLOUT.rawValue | EPOLLET.rawValue
        event.data.u64 = token
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) == 0 else {
            _ = streams.withLock { $0.removeValue(forKey: token) }
            return nil
        }
        return Watch(token: token, count: count)
    }

    /// Stops watching and gives back the stream's count; call it before closing the socket
    /// (under the stream's lock, so that the descriptor cannot be reused meanwhile).
    func unwatch(_ watch: Watch, socket: Int32) {
        var unused = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, socket, &unused)
        _ = streams.withLock { $0.removeValue(forKey: watch.token) }
        release(watch.count)
    }

    /// Starts the socket thread; it checks for `stop()` twice a second.
    ///
    /// The corresponding C function is `epoll_wait`.
    func start() {
        let thread = Thread { [self] in
            var events = [epoll_event](repeating: epoll_event(), count: 256)
            while !stopped.load(ordering: .relaxed) {
                let count = events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, 256, 500) }
                guard count > 0 else { continue }
                for event in events[0..<Int(count)] {
                    // The map lock is never held while a stream's is taken (streams take it
                    // in `unwatch` under their own).
                    guard let stream = streams.withLock({ $0[event.data.u64] }) else { continue }
                    let hangUp = EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
                    if event.events & hangUp != 0 {
                        stream.cancelNow()
                    } else if event.events & EPOLLOUT.rawValue != 0 {
                        stream.flush()
                    }
                }
            }
        }
        thread.name = "stream-sockets"
        thread.start()
    }

    /// Ends the socket thread within half a second.
    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Closes every detached stream still open (at shutdown, after each was finished).
    func cancelAll() {
        for stream in streams.withLock({ Array($0.values) }) { stream.cancelNow() }
    }
}
