import Foundation
import Synchronization
import Testing

@testable import ServerSupport

/// `DeadlineLock`: the registry's per-list writer lock (issue 25: a write waits for its list at
/// most `--write-timeout`).
@Suite("DeadlineLock")
struct DeadlineLockTests {
    @Test func aFreeLockIsTakenEvenWithADeadlineAlreadyPast() {
        let lock = DeadlineLock()
        #expect(lock.lock(before: .now - .seconds(1)))
        lock.unlock()
        #expect(lock.lock(before: .now))
        lock.unlock()
    }

    @Test func aWaiterGivesUpAtItsDeadlineAndDoesNotKeepTheLock() throws {
        let lock = DeadlineLock()
        lock.lock()
        let started = ContinuousClock.now
        let got = Atomic<Bool>(true)
        let waiter = Thread { got.store(lock.lock(before: started + .milliseconds(200)), ordering: .relaxed) }
        waiter.start()
        while !waiter.isFinished { Thread.sleep(forTimeInterval: 0.005) }
        let waited = ContinuousClock.now - started
        let gotIt = got.load(ordering: .relaxed)
        #expect(!gotIt)
        #expect(waited >= .milliseconds(200))
        #expect(waited < .milliseconds(1_000), "gave up \(waited) after the lock was asked for")
        #expect(lock.waiterCount == 0)
        lock.unlock()
        // Nobody took the hand-off: the lock is free.
        #expect(lock.lock(before: .now))
        lock.unlock()
    }

    @Test func withLockThrowsWithoutRunningTheBodyWhenTimedOut() {
        struct TimedOut: Error {}
        let lock = DeadlineLock()
        lock.lock()
        defer { lock.unlock() }
        var ran = false
        #expect(throws: TimedOut.self) {
            try lock.withLock(before: .now + .milliseconds(20), orThrow: { _ in TimedOut() }) { ran = true }
        }
        #expect(!ran)
    }

    @Test func aFullQueueRefusesAtOnce() {
        let lock = DeadlineLock()
        lock.lock()
        let waiter = Thread { if lock.lock(before: .now + .seconds(30)) { lock.unlock() } }
        waiter.start()
        let queued = ContinuousClock.now + .seconds(10)
        while lock.waiterCount < 1 && ContinuousClock.now < queued { Thread.sleep(forTimeInterval: 0.001) }
        let started = ContinuousClock.now
        #expect(lock.lock(before: .now + .seconds(5), unlessWaiting: 1) == .queueFull)
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(lock.lock(before: .now + .milliseconds(20), unlessWaiting: 2) == .timedOut)
        lock.unlock()
        while !waiter.isFinished { Thread.sleep(forTimeInterval: 0.002) }
        #expect(lock.lock(before: .now, unlessWaiting: 0) == .acquired, "a free lock is taken whatever the limit")
        lock.unlock()
    }

    @Test func waitersAreServedInTheOrderTheyCame() {
        let lock = DeadlineLock()
        lock.lock()
        let order = Mutex<[Int]>([])
        var threads: [Thread] = []
        for index in 0..<8 {
            let thread = Thread {
                #expect(lock.lock(before: .now + .seconds(30)))
                order.withLock { $0.append(index) }
                lock.unlock()
            }
            thread.start()
            threads.append(thread)
            // The next thread starts only once this one waits: their order is known.
            let queued = ContinuousClock.now + .seconds(10)
            while lock.waiterCount < index + 1 && ContinuousClock.now < queued { Thread.sleep(forTimeInterval: 0.001) }
        }
        // A newcomer with a deadline gives up rather than jump the queue.
        #expect(!lock.lock(before: .now + .milliseconds(20)))
        lock.unlock()
        let deadline = ContinuousClock.now + .seconds(30)
        while threads.contains(where: { !$0.isFinished }) && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.002) }
        #expect(order.withLock { $0 } == Array(0..<8))
    }

    /// Many threads, short deadlines and short holds: the lock is never held twice, no hand-off
    /// is lost (every attempt that got the lock let go, and the lock is free at the end), and
    /// the waiters that gave up did so near their deadline.
    @Test func noLostWakeUpsOrDoubleHoldsUnderContention() {
        let lock = DeadlineLock()
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let acquired = Atomic<Int>(0)
        let timedOut = Atomic<Int>(0)
        let late = Atomic<Int>(0)
        let threads = (0..<8).map { index in
            Thread {
                for round in 0..<300 {
                    let patience = Duration.microseconds((index * 37 + round * 11) % 400 + 50)
                    let deadline = ContinuousClock.now + patience
                    if lock.lock(before: deadline) {
                        if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 { overlaps.add(1, ordering: .relaxed) }
                        if round % 3 == 0 { usleep(50) }
                        inside.subtract(1, ordering: .acquiringAndReleasing)
                        acquired.add(1, ordering: .relaxed)
                        lock.unlock()
                    } else {
                        timedOut.add(1, ordering: .relaxed)
                        // A loaded machine may wake a waiter late, but not by seconds.
                        if ContinuousClock.now - deadline > .seconds(2) { late.add(1, ordering: .relaxed) }
                    }
                }
            }
        }
        threads.forEach { $0.start() }
        let deadline = ContinuousClock.now + .seconds(60)
        while threads.contains(where: { !$0.isFinished }) && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let finished = threads.allSatisfy { $0.isFinished }
        #expect(finished, "a waiter never woke")
        let (overlapCount, acquiredCount, timedOutCount, lateCount) = (
            overlaps.load(ordering: .relaxed), acquired.load(ordering: .relaxed),
            timedOut.load(ordering: .relaxed), late.load(ordering: .relaxed)
        )
        #expect(overlapCount == 0)
        #expect(acquiredCount + timedOutCount == 8 * 300)
        #expect(acquiredCount > 0)
        #expect(lateCount == 0)
        #expect(lock.waiterCount == 0)
        #expect(lock.lock(before: .now), "the lock was left held")
        lock.unlock()
    }
}
