import Dispatch
import Foundation
import ServerSupport
import Synchronization
import Testing

@testable import HTTPServer

/// What a handler puts off until its answer is on its way (`AfterAnswer`: a write's publishing
/// to live subscribers) runs on the connection's thread once the answer is queued, once, and
/// even when the writer is gone.
@Suite("Work put off until the answer", .serialized)
struct AfterAnswerTests {
    /// Counts the runs of a put-off job and the threads they and the handler ran on.
    final class Job: Sendable {
        let started = DispatchSemaphore(value: 0)
        let runs = Atomic<Int>(0)
        let handlerThread = Mutex<pthread_t?>(nil)
        let jobThread = Mutex<pthread_t?>(nil)

        func run() {
            jobThread.withLock { $0 = pthread_self() }
            runs.add(1, ordering: .relaxed)
            started.signal()
        }
    }

    private func startServer(_ job: Job, handlerGate: DispatchSemaphore? = nil) throws -> HTTPServer {
        var router = Router()
        router.post("/write") { _ in
            #expect(AfterAnswer.putOff { job.run() }, "a write's handler runs where work can be put off")
            job.handlerThread.withLock { $0 = pthread_self() }
            handlerGate?.wait()
            return .text("written\n")
        }
        router.post("/refused") { _ in
            _ = AfterAnswer.putOff { job.run() }
            throw HTTPError(.conflict, "refused after the change")
        }
        return try HTTPServer.startedOnOneThread(router)
    }

    @Test func putOffWorkRunsOnceTheAnswerIsQueued() throws {
        let job = Job()
        let server = try startServer(job)
        defer { server.shutdown() }
        let reply = try TestClient.request(port: server.port, "POST", "/write")
        #expect(reply.status == 200)
        #expect(job.started.wait(timeout: .now() + 5) == .success, "the put-off work ran")
        let threads = (job.handlerThread.withLock { $0 }, job.jobThread.withLock { $0 })
        #expect(
            threads.0 != nil && threads.1 != nil && pthread_equal(threads.0!, threads.1!) == 0,
            "on the connection's thread as it queued the answer, not on the handler's before it handed the answer over")
        #expect(job.runs.load(ordering: .relaxed) == 1)
    }

    @Test func putOffWorkRunsAfterAnErrorAnswerToo() throws {
        let job = Job()
        let server = try startServer(job)
        defer { server.shutdown() }
        let reply = try TestClient.request(port: server.port, "POST", "/refused")
        #expect(reply.status == 409)
        #expect(job.started.wait(timeout: .now() + 5) == .success, "what the handler put off runs whatever it answered")
    }

    @Test func putOffWorkRunsOnceWhenTheWriterLeftBeforeItsAnswer() throws {
        let job = Job()
        let handlerGate = DispatchSemaphore(value: 0)
        let server = try startServer(job, handlerGate: handlerGate)
        defer { server.shutdown() }
        do {
            let client = try TestClient(port: server.port)
            client.send("POST /write HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
            Thread.sleep(forTimeInterval: 0.2)  // the handler is running and holds on the gate
        }  // the client closes its connection
        Thread.sleep(forTimeInterval: 0.2)
        handlerGate.signal()
        #expect(job.started.wait(timeout: .now() + 5) == .success, "a write's subscribers get it though its writer is gone")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(job.runs.load(ordering: .relaxed) == 1, "once, not once per way the request ended")
    }

    @Test func workIsPutOffOnlyWhileAHandlerCollectsIt() {
        #expect(!AfterAnswer.putOff {}, "no request is being handled on this thread: the caller does the work itself")
        let order = Mutex<[Int]>([])
        let (answer, putOff) = AfterAnswer.collecting { () -> String in
            #expect(AfterAnswer.putOff { order.withLock { $0.append(1) } })
            #expect(AfterAnswer.putOff { order.withLock { $0.append(2) } })
            return "answer"
        }
        #expect(answer == "answer")
        #expect(order.withLock { $0 }.isEmpty, "nothing runs before `run`")
        #expect(!putOff.isEmpty)
        putOff.run()
        putOff.run()
        #expect(order.withLock { $0 } == [1, 2], "in order, once")
        #expect(!AfterAnswer.putOff {}, "collecting ends with its handler")
    }
}
