#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock whose waiters give up at a deadline, and that is fair: a waiter is handed the lock
/// in the order it started waiting (FIFO), and a newcomer never takes it ahead of a waiter.
///
/// `Synchronization.Mutex` has no timed lock. This one is a pthread mutex guarding a few fields
/// and one condition variable (on the monotonic clock):
/// - uncontended, `lock(before:)` is one mutex lock and unlock around a check (no syscall
///   beyond the futex's fast path, no allocation);
/// - `unlock()` hands the lock straight to the oldest waiter (the lock stays held, so nobody can
///   barge in between) and wakes the waiters, each of which checks whether it is the one;
/// - a waiter whose deadline passes leaves the queue; if it was handed the lock in the same
///   instant, it keeps it (it returns true), so a hand-off is never lost.
///
/// Not reentrant. Every `lock(before:)` that returns true needs one `unlock()`.
public final class DeadlineLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Guarded by `mutex`.
    private var held = false
    /// Waiting tickets, oldest first.
    private var waiting: [UInt64] = []
    /// The ticket the lock was handed to, until that waiter wakes and takes it.
    private var handedTo: UInt64?
    private var nextTicket: UInt64 = 0

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// What `lock(before:unlessWaiting:)` did.
    public enum Outcome: Sendable, Equatable {
        /// The caller holds the lock.
        case acquired
        /// The deadline passed first; the caller does not hold the lock.
        case timedOut
        /// As many callers as allowed were waiting already; the caller did not wait.
        case queueFull
    }

    /// Takes the lock, waiting at most until `deadline`; false when the deadline passed first
    /// (then the lock is not held by the caller). A deadline already past still takes a free lock.
    public func lock(before deadline: ContinuousClock.Instant) -> Bool {
        lock(before: deadline, unlessWaiting: .max) == .acquired
    }

    /// Takes the lock, waiting at most until `deadline`, unless `limit` callers wait for it
    /// already (then `.queueFull` at once).
    public func lock(before deadline: ContinuousClock.Instant, unlessWaiting limit: Int) -> Outcome {
        pthread_mutex_lock(mutex)
        if !held && waiting.isEmpty {
            held = true
            pthread_mutex_unlock(mutex)
            return .acquired
        }
        if waiting.count >= limit {
            pthread_mutex_unlock(mutex)
            return .queueFull
        }
        let ticket = nextTicket
        nextTicket &+= 1
        waiting.append(ticket)
        var timeout = Self.monotonicTimespec(after: deadline - ContinuousClock.now)
        while handedTo != ticket {
            if ContinuousClock.now >= deadline {
                waiting.removeAll { $0 == ticket }
                pthread_mutex_unlock(mutex)
                return .timedOut
            }
            if pthread_cond_timedwait(condition, mutex, &timeout) == ETIMEDOUT {
                // Checked once more above: a hand-off that came with the timeout still counts.
                timeout = Self.monotonicTimespec(after: deadline - ContinuousClock.now)
            }
        }
        handedTo = nil
        pthread_mutex_unlock(mutex)
        return .acquired
    }

    /// Takes the lock, however long it takes.
    public func lock() {
        _ = lock(before: .now + .seconds(10 * 365 * 86_400))
    }

    /// Lets go of the lock: the oldest waiter (if any) gets it.
    public func unlock() {
        pthread_mutex_lock(mutex)
        precondition(held && handedTo == nil, "DeadlineLock.unlock() without holding it")
        if waiting.isEmpty {
            held = false
            pthread_mutex_unlock(mutex)
            return
        }
        handedTo = waiting.removeFirst()
        pthread_mutex_unlock(mutex)
        pthread_cond_broadcast(condition)
    }

    /// Runs `body` holding the lock, taken before `deadline` unless `limit` callers wait for it
    /// already; when it cannot be, throws `refusal(outcome)` without running `body`.
    public func withLock<T, E: Error>(
        before deadline: ContinuousClock.Instant, unlessWaiting limit: Int = .max,
        orThrow refusal: (Outcome) -> E, _ body: () throws -> T
    ) throws -> T {
        let outcome = lock(before: deadline, unlessWaiting: limit)
        guard outcome == .acquired else { throw refusal(outcome) }
        defer { unlock() }
        return try body()
    }

    /// Runs `body` holding the lock, however long taking it takes.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// How many callers wait for the lock now (tests, metrics).
    public var waiterCount: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return waiting.count
    }

    /// The monotonic clock's time `duration` from now (`pthread_cond_timedwait` on a condition
    /// set to `CLOCK_MONOTONIC`).
    private static func monotonicTimespec(after duration: Duration) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = max(duration, .zero).components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var wholeSeconds = Int(now.tv_sec) + Int(min(seconds, Int64(Int32.max)))
        if nanoseconds >= 1_000_000_000 {
            nanoseconds -= 1_000_000_000
            wholeSeconds += 1
        }
        return timespec(tv_sec: wholeSeconds, tv_nsec: nanoseconds)
    }
}

extension Duration {
    /// The duration in seconds, fractions included.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
