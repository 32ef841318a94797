import Foundation
import ServerSupport

/// A few connections lent one caller at a time, so that writes to different lists and reads of
/// the log do not queue on one connection. Broken connections are dropped and made again; after
/// a failed connect, calls fail at once with `.unavailable` until the next attempt is due
/// (backoff from 100 ms doubling to 2 s), so no call hangs while PostgreSQL is away.
final class PostgresPool: @unchecked Sendable {
    let address: PostgresAddress
    let size: Int
    /// Longest wait for a connection when all are lent out.
    let checkoutTimeout: Duration

    private let condition = NSCondition()
    private var idle: [PGConnection] = []
    private var lent = 0
    private var closed = false
    private var nextAttempt: ContinuousClock.Instant?
    private var backoff = Backoff()
    private var lastFailure: StoreError?

    init(address: PostgresAddress, size: Int, checkoutTimeout: Duration = .seconds(10)) {
        self.address = address
        self.size = size
        self.checkoutTimeout = checkoutTimeout
    }

    /// Runs `body` with a connection of the pool. When the connection turns out broken on its
    /// first call (PostgreSQL restarted since it was last used), nothing reached PostgreSQL, so
    /// `body` runs once more on a new connection.
    /// - Parameter deadline: a write's deadline: waiting for a free connection ends then too,
    ///   with `.busy` (every connection is lent to writes that wait for locks, or working).
    func withConnection<T>(before deadline: ContinuousClock.Instant? = nil, _ body: (PGConnection) throws -> T) throws -> T {
        for attempt in 1...2 {
            let connection = try checkOut(before: deadline)
            connection.succeededCalls = 0
            do {
                let value = try body(connection)
                checkIn(connection)
                return value
            } catch {
                checkIn(connection)
                if attempt == 1, connection.isBroken, connection.succeededCalls == 0 { continue }
                throw error
            }
        }
        preconditionFailure("unreachable")
    }

    /// Closes every idle connection; lent ones close when given back. Later calls throw.
    func close() {
        condition.lock()
        closed = true
        idle.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    private func checkOut(before writeDeadline: ContinuousClock.Instant?) throws -> PGConnection {
        let ownDeadline = ContinuousClock.now + checkoutTimeout
        let deadline = writeDeadline.map { min($0, ownDeadline) } ?? ownDeadline
        condition.lock()
        while true {
            if closed {
                condition.unlock()
                throw StoreError(.failed, "the store \(address.redacted) is closed")
            }
            if let connection = idle.popLast() {
                lent += 1
                condition.unlock()
                return connection
            }
            if lent < size { break }
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero {
                condition.unlock()
                if deadline < ownDeadline {
                    throw StoreError(.busy, "all \(size) connections to \(address.redacted) stayed lent out until the write's deadline")
                }
                throw StoreError(.unavailable, "all \(size) connections to \(address.redacted) stayed busy for \(checkoutTimeout)")
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: remaining.seconds))
        }
        if let nextAttempt, ContinuousClock.now < nextAttempt, let lastFailure {
            condition.unlock()
            throw lastFailure
        }
        lent += 1
        condition.unlock()
        do {
            let connection = try PGConnection(address)
            condition.withLock {
                nextAttempt = nil
                backoff.reset()
            }
            return connection
        } catch {
            let failure = error as? StoreError ?? StoreError(.unavailable, "\(error)")
            condition.withLock {
                lent -= 1
                nextAttempt = ContinuousClock.now + backoff.take()
                lastFailure = failure
                condition.signal()
            }
            throw failure
        }
    }

    /// Takes a connection back: broken ones (and, then, every idle one: PostgreSQL probably
    /// restarted, so they are broken too) are dropped; one left inside a transaction is too.
    private func checkIn(_ connection: PGConnection) {
        let keep = !connection.isBroken && connection.isIdle
        condition.lock()
        lent -= 1
        if keep && !closed {
            idle.append(connection)
        } else if !keep {
            idle.removeAll()
        }
        condition.signal()
        condition.unlock()
    }
}
