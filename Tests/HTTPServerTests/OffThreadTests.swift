import Dispatch
import Foundation
import Synchronization
import Testing

@testable import HTTPServer

/// Handlers that take long run off the connection's thread (`HTTPServer+Offload`): writes always,
/// reads when they answer `Response.offThread`. With one server thread, a handler held on a
/// gate must leave other connections answered, and shutdown must wait for it (libmicrohttpd
/// cannot stop with a connection suspended).
@Suite("Long handlers off the connection's thread", .serialized)
struct OffThreadTests {
    /// Holds a handler until the test opens it, and tells the test when one is held.
    final class Gate: Sendable {
        let open = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let finished = Atomic<Int>(0)

        func hold() {
            entered.signal()
            open.wait()
            finished.add(1, ordering: .releasing)
        }
    }

    private func startServer(_ gate: Gate) throws -> HTTPServer {
        var router = Router()
        router.get("/healthz") { _ in .text("ok\n") }
        router.post("/hold") { _ in
            gate.hold()
            return .text("written\n")
        }
        router.get("/large") { _ in
            .offThread {
                gate.hold()
                return .text("made\n")
            }
        }
        return try HTTPServer.startedOnOneThread(router)
    }

    @Test(arguments: [("POST", "/hold", "written"), ("GET", "/large", "made")])
    func aHeldHandlerHoldsUpNoOtherConnection(method: String, target: String, answer: String) throws {
        let gate = Gate()
        let server = try startServer(gate)
        defer { server.shutdown() }
        let held = try TestClient(port: server.port)
        held.send("\(method) \(target) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        #expect(gate.entered.wait(timeout: .now() + 5) == .success, "the handler started")
        let other = try TestClient.request(port: server.port, "GET", "/healthz")
        #expect(other.status == 200, "another connection is answered while the handler is held (one server thread)")
        gate.open.signal()
        let reply = held.read(until: answer)
        #expect(reply.hasPrefix("HTTP/1.1 200"), "the held request gets its answer once the handler returns")
        #expect(reply.hasSuffix(answer + "\n"))
        let next = try TestClient.request(port: server.port, "GET", "/healthz")
        #expect(next.status == 200)
    }

    @Test func shutdownWaitsForAHeldWriteHandler() throws {
        let gate = Gate()
        let server = try startServer(gate)
        let held = try TestClient(port: server.port)
        held.send("POST /hold HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        #expect(gate.entered.wait(timeout: .now() + 5) == .success)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) { gate.open.signal() }
        server.shutdown()  // would abort the process if it stopped libmicrohttpd with the connection suspended
        #expect(gate.finished.load(ordering: .acquiring) == 1, "the handler ran to its end before the server stopped")
    }
}
