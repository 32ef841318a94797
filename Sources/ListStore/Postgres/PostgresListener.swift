import CLibPQ
import Foundation
import Synchronization

/// Tells the store's owner about every other instance's commits: one connection that `LISTEN`s,
/// read on its own thread with `poll` on libpq's socket, `PQconsumeInput` and `PQnotifies`.
/// Reports `.resync` each time it (re)connects, since notifications sent while it was away are
/// lost; reconnects with backoff when the connection breaks (keepalives notice a silent one).
final class PostgresListener: @unchecked Sendable {
    private let address: PostgresAddress
    private let ownPID: @Sendable () -> Int32
    private let receive: @Sendable (StoreFeedEvent) -> Void
    private let stopped = Mutex(false)

    /// Starts listening at once.
    /// - Parameters:
    ///   - ownPID: the backend process of this instance's notifier, whose notifications are skipped.
    ///   - receive: called on the listener's thread, one event at a time, in the order received.
    init(
        address: PostgresAddress, ownPID: @escaping @Sendable () -> Int32,
        receive: @escaping @Sendable (StoreFeedEvent) -> Void
    ) {
        self.address = address
        self.ownPID = ownPID
        self.receive = receive
        let thread = Thread { [self] in run() }
        thread.name = "postgres-listener"
        thread.start()
    }

    /// Ends the thread within a poll interval (it closes its connection itself).
    func stop() { stopped.withLock { $0 = true } }

    private var isStopped: Bool { stopped.withLock { $0 } }

    private func run() {
        var backoff = Backoff()
        while !isStopped {
            do {
                let connection = try PGConnection(address)
                try connection.execute("LISTEN \(PendingNotifications.channel)")
                backoff.reset()
                receive(.resync)
                try listen(on: connection)
            } catch {
                if !backoff.sleep(until: { isStopped }) { return }
            }
        }
    }

    /// Delivers notifications until the connection breaks (throws) or the listener stops.
    private func listen(on connection: PGConnection) throws {
        let socket = PQsocket(connection.handle)
        while !isStopped {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 500)
            if ready < 0 && errno != EINTR { throw StoreError(.unavailable, "poll failed: errno \(errno)") }
            guard ready > 0 else { continue }
            guard PQconsumeInput(connection.handle) == 1 else {
                throw StoreError(
                    .unavailable, "the listening connection broke: \(PGConnection.lastLine(PQerrorMessage(connection.handle)))")
            }
            let own = ownPID()
            while let notification = PQnotifies(connection.handle) {
                let sender = notification.pointee.be_pid
                let payload = String(cString: notification.pointee.extra)
                PQfreemem(notification)
                guard sender != own else { continue }
                for (id, version) in PendingNotifications.parse(payload) { receive(.committed(id: id, version: version)) }
            }
            if connection.isBroken { throw StoreError(.unavailable, "the listening connection broke") }
        }
    }
}
