import Foundation
import ServerSupport

/// The threads offloaded handlers run on (`HTTPServer+Offload`): one per handler running, made
/// when every thread is busy, up to `maxThreads` (`ServerDefaults.maxHandlerThreads`); a thread idle for `idleSeconds` ends.
///
/// Not a Dispatch concurrent queue: on Linux its pool stops at a few threads per core and does
/// not see that they are blocked, and write handlers do block: a write waits (up to
/// `--write-timeout`) for its list behind the list's other writers or for a lock in the store.
/// Six such writes to one locked list filled the queue's threads on a 2-core machine, and writes
/// to every other list waited for them (issue 25). Here a blocked handler holds only its own
/// thread; handlers queue only past `maxThreads` at once.
final class HandlerThreads: @unchecked Sendable {
    let maxThreads: Int
    let idleSeconds: Double
    private let condition = NSCondition()
    /// Guarded by `condition`: jobs not started yet (oldest at `head`).
    private var jobs: [(@Sendable () -> Void)?] = []
    private var head = 0
    private var threads = 0
    /// Threads waiting for a job.
    private var idle = 0
    /// Jobs signalled to idle threads and not yet claimed by one of them (at most `idle`).
    private var wakeups = 0

    init(maxThreads: Int = ServerDefaults.maxHandlerThreads, idleSeconds: Double = 30) {
        self.maxThreads = max(1, maxThreads)
        self.idleSeconds = idleSeconds
    }

    /// Runs `job` on an idle thread, else a new one, else (at `maxThreads`) when one frees up.
    func async(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        if idle > wakeups {
            wakeups += 1
            condition.signal()
        } else if threads < maxThreads {
            threads += 1
            let thread = Thread { [self] in run() }
            thread.name = "http-server.handlers"
            thread.start()
        }
        condition.unlock()
    }

    /// The number of threads now (tests).
    var threadCount: Int { condition.withLock { threads } }

    private func run() {
        condition.lock()
        while true {
            if head < jobs.count {
                let job = jobs[head]!
                jobs[head] = nil
                head += 1
                if head == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    head = 0
                } else if head >= 1024 && head * 2 >= jobs.count {
                    jobs.removeFirst(head)
                    head = 0
                }
                condition.unlock()
                job()
                condition.lock()
                continue
            }
            idle += 1
            let deadline = Date(timeIntervalSinceNow: idleSeconds)
            while wakeups == 0 {
                if !condition.wait(until: deadline) && wakeups == 0 {
                    // Idle for `idleSeconds` and no job signalled: this thread ends.
                    idle -= 1
                    threads -= 1
                    condition.unlock()
                    return
                }
            }
            wakeups -= 1
            idle -= 1
        }
    }
}
