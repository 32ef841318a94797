import Foundation
import Synchronization
import Testing

@testable import HTTPServer

/// The write handlers' threads (issue 25): a handler that blocks (a write waiting for its list)
/// never keeps another from starting.
@Suite("HandlerThreads")
struct HandlerThreadsTests {
    @Test func blockedHandlersDoNotHoldUpOthers() {
        let threads = HandlerThreads(maxThreads: 64, idleSeconds: 30)
        let release = DispatchSemaphore(value: 0)
        let started = Atomic<Int>(0)
        let blocked = 16
        for _ in 0..<blocked {
            threads.async {
                started.add(1, ordering: .relaxed)
                release.wait()
            }
        }
        let ran = DispatchSemaphore(value: 0)
        threads.async { ran.signal() }
        #expect(ran.wait(timeout: .now() + 5) == .success, "a handler waited behind blocked ones")
        let deadline = ContinuousClock.now + .seconds(5)
        while started.load(ordering: .relaxed) < blocked && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let count = started.load(ordering: .relaxed)
        #expect(count == blocked)
        for _ in 0..<blocked { release.signal() }
    }

    @Test func pastTheCapJobsWaitAndAllRunAndIdleThreadsEnd() {
        let threads = HandlerThreads(maxThreads: 2, idleSeconds: 0.2)
        let done = Atomic<Int>(0)
        for _ in 0..<200 { threads.async { done.add(1, ordering: .relaxed) } }
        let deadline = ContinuousClock.now + .seconds(10)
        while done.load(ordering: .relaxed) < 200 && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let finished = done.load(ordering: .relaxed)
        #expect(finished == 200)
        #expect(threads.threadCount <= 2)
        while threads.threadCount > 0 && ContinuousClock.now < deadline + .seconds(5) { Thread.sleep(forTimeInterval: 0.02) }
        #expect(threads.threadCount == 0, "idle threads did not end")
        // Threads are made again when needed.
        let ran = DispatchSemaphore(value: 0)
        threads.async { ran.signal() }
        #expect(ran.wait(timeout: .now() + 5) == .success)
    }
}
