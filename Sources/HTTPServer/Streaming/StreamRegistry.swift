import Foundation
import ServerSupport
import Synchronization

/// The open streams of one server: heartbeats them and ends them all at shutdown.
final class StreamRegistry: Sendable {
    private struct State {
        var streams: [ObjectIdentifier: ResponseStream] = [:]
        var closing = false
    }

    private let state = Mutex(State())
    private let stopped = Atomic<Bool>(false)

    /// Registers an attached stream; one that arrives after shutdown began is finished at once.
    func add(_ stream: ResponseStream) {
        let closing = state.withLock { state -> Bool in
            if !state.closing { state.streams[ObjectIdentifier(stream)] = stream }
            return state.closing
        }
        if closing { stream.finish() }
    }

    func remove(_ stream: ResponseStream) {
        _ = state.withLock { $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    /// Starts a thread that writes heartbeats to streams idle for `interval` seconds,
    /// checking a few times per interval so that no gap exceeds it by much.
    func startHeartbeats(interval: Double) {
        let tick = max(0.05, min(1.0, interval / 4))
        let idle = UInt64(max(0, interval - tick) * 1e9)
        let thread = Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                usleep(UInt32(tick * 1e6))
                let now = monotonicNanoseconds()
                for stream in snapshot() { stream.heartbeatIfIdle(now: now, idleNanoseconds: idle) }
            }
        }
        thread.name = "heartbeats"
        thread.start()
    }

    /// Refuses new streams and finishes every open one: a detached stream closes once its
    /// socket has taken what it queued, one still in libmicrohttpd's hands ends at its first read.
    func closeAll() {
        stopped.store(true, ordering: .relaxed)
        let open = state.withLock { state -> [ResponseStream] in
            state.closing = true
            return Array(state.streams.values)
        }
        for stream in open { stream.finish(handlersHere: true) }
    }

    private func snapshot() -> [ResponseStream] {
        state.withLock { Array($0.streams.values) }
    }
}
