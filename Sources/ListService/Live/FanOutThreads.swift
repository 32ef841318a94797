import Foundation
import Synchronization

/// The threads that share the sends of one large fan-out (`LiveHub.deliver`): the publishing
/// thread itself and `helpers` threads of their own, which wait between fan-outs.
///
/// Every thread claims the next block of indices from one counter until none is left, so a helper
/// that wakes late takes less of the work and the publisher never waits for a thread that has not
/// started, only for blocks already claimed. Not `DispatchQueue.concurrentPerform`: on Linux its
/// other iterations wait for a thread of Dispatch's pool, which is not started while the pool's
/// threads look busy, so the publisher sent every event alone (docs/BENCHMARKS-HISTORY.md,
/// "Fan-out on two threads").
package final class FanOutThreads: @unchecked Sendable {
    /// Threads started besides the publisher's, at the first fan-out.
    package let helpers: Int
    private let wake = NSCondition()
    /// Guarded by `wake`: the fan-out now running, how many have started, how many helper
    /// threads exist, and whether they must end.
    private var job: Job?
    private var started = 0
    private var threads = 0
    private var stopped = false

    package init(helpers: Int) {
        self.helpers = max(0, helpers)
    }

    /// Runs `body` for every index in `0..<count` (in blocks of `block`), on this thread and the
    /// helpers, and returns once every call has returned. `body` runs on several threads at once.
    package func run(_ count: Int, block: Int = 32, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let job = Job(count: count, block: max(1, block), body: body)
        wake.lock()
        if !stopped {
            while threads < helpers {
                threads += 1
                let thread = Thread { [self] in help() }
                thread.name = "list-server.fan-out"
                thread.start()
            }
            self.job = job
            started += 1
            wake.broadcast()
        }
        wake.unlock()
        job.work()
        job.waitUntilDone()
        wake.lock()
        if self.job === job { self.job = nil }
        wake.unlock()
    }

    /// Ends the helper threads (the publisher's own thread still runs later fan-outs).
    package func stop() {
        wake.lock()
        stopped = true
        job = nil
        wake.broadcast()
        wake.unlock()
    }

    private func help() {
        var seen = 0
        wake.lock()
        while !stopped {
            if let job, started != seen {
                seen = started
                wake.unlock()
                job.work()
                wake.lock()
            } else {
                wake.wait()
            }
        }
        wake.unlock()
    }

    /// One fan-out: `count` indices, claimed `block` at a time.
    private final class Job: @unchecked Sendable {
        let count: Int
        let block: Int
        let body: @Sendable (Int) -> Void
        let next = Atomic<Int>(0)
        /// Indices whose call has returned.
        let done = Atomic<Int>(0)
        let finished = NSCondition()

        init(count: Int, block: Int, body: @escaping @Sendable (Int) -> Void) {
            self.count = count
            self.block = block
            self.body = body
        }

        /// Claims and runs blocks until none is left.
        func work() {
            while true {
                let start = next.add(block, ordering: .relaxed).oldValue
                if start >= count { return }
                let end = min(count, start + block)
                for index in start..<end { body(index) }
                if done.add(end - start, ordering: .acquiringAndReleasing).newValue == count {
                    finished.lock()
                    finished.broadcast()
                    finished.unlock()
                }
            }
        }

        func waitUntilDone() {
            finished.lock()
            while done.load(ordering: .acquiring) < count { finished.wait() }
            finished.unlock()
        }
    }
}
