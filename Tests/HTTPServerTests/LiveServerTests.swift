import Foundation
import ServerSupport
import Synchronization
import Testing

@testable import HTTPServer

@Suite("Live server on a real port", .serialized)
struct LiveServerTests {
    /// Streams handed out by the `/stream` route, for the test to write to.
    final class StreamBox: Sendable {
        let streams = Mutex<[ResponseStream]>([])
        let terminated = Atomic<Int>(0)

        func next(timeout: Double = 5) -> ResponseStream? {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if let stream = streams.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return stream }
                usleep(5_000)
            }
            return nil
        }
    }

    private func startServer(box: StreamBox, heartbeat: Double = 15, maxBody: Int = 1000) throws -> HTTPServer {
        var router = Router()
        router.get("/healthz") { _ in .text("ok\n") }
        router.put("/echo") { request in Response(body: request.body) }
        router.get("/stream") { _ in
            .stream(headers: ["Content-Type": "text/event-stream"], heartbeat: Array(": hb\n\n".utf8)) { stream in
                stream.onTermination { box.terminated.add(1, ordering: .relaxed) }
                box.streams.withLock { $0.append(stream) }
            }
        }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.maxBodyBytes = maxBody
        configuration.heartbeatInterval = heartbeat
        configuration.logRequests = false
        let server = try HTTPServer(configuration: configuration, router: router)
        try server.start()
        return server
    }

    /// A client (with a receive buffer of `receiveBuffer` bytes when given) that has asked
    /// `server` for `/stream`, and the stream the route handed out for it.
    private func openStream(
        on server: HTTPServer, _ box: StreamBox,
        receiveBuffer: Int32? = nil, version: String = "HTTP/1.1"
    ) throws -> (TestClient, ResponseStream) {
        let client = try TestClient(port: server.port, receiveBuffer: receiveBuffer)
        client.send("GET /stream \(version)\r\nHost: x\r\n\r\n")
        return (client, try #require(box.next()))
    }

    /// `count` bytes of `letter`: a piece larger than a socket takes at once.
    private func filler(_ letter: Unicode.Scalar, count: Int) -> SharedBytes {
        SharedBytes(Array(repeating: UInt8(ascii: letter), count: count))
    }

    @Test func answersOnARealPortAndKeepsConnectionsAlive() throws {
        let server = try startServer(box: StreamBox())
        defer { server.shutdown() }
        #expect(server.port > 0)
        #expect(server.url == "http://127.0.0.1:\(server.port)/")

        let client = try TestClient(port: server.port)
        client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = TestClient.parse(client.read(until: "ok\n"))
        #expect(first.status == 200)
        #expect(first.headers["connection"] == nil)
        client.send("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
        let second = TestClient.parse(client.read(until: "}"))
        #expect(second.status == 404)
        #expect(second.headers["content-type"] == "application/problem+json")
        #expect(server.metrics.responsesByStatus[200] == 1)
    }

    @Test func bodiesUpToTheCapArriveAndLargerOnesGet413() throws {
        let server = try startServer(box: StreamBox())
        defer { server.shutdown() }
        let echoed = try TestClient.request(port: server.port, "PUT", "/echo", body: String(repeating: "x", count: 1000))
        #expect(echoed.status == 200)
        #expect(echoed.body.count == 1000)

        let declared = try TestClient.request(port: server.port, "PUT", "/echo", body: String(repeating: "x", count: 1001))
        #expect(declared.status == 413)
        #expect(declared.body.contains("\"status\":413"))

        let client = try TestClient(port: server.port)
        let chunk = String(repeating: "y", count: 600)
        client.send(
            "PUT /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n")
        #expect(TestClient.parse(client.readAll()).status == 413)
    }

    @Test func garbageRequestsGetAnErrorAndTheServerLivesOn() throws {
        let server = try startServer(box: StreamBox())
        defer { server.shutdown() }
        for garbage in ["GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n", "\u{1}\u{2}\u{3}\r\n\r\n"] {
            let client = try TestClient(port: server.port)
            client.send(garbage)
            let reply = TestClient.parse(client.readAll())
            #expect(reply.status == 0 || (400..<500).contains(reply.status), "\(garbage.debugDescription) -> \(reply.status)")
        }
        #expect(try TestClient.request(port: server.port, "GET", "/healthz").status == 200)
    }

    @Test func streamWritesGoStraightToTheSocketFromAnyThreadOneChunkEach() throws {
        let box = StreamBox()
        let server = try startServer(box: box)
        defer { server.shutdown() }
        let (client, stream) = try openStream(on: server, box)
        #expect(server.metrics.openStreams == 1)
        Thread.detachNewThread { stream.write("data: one\n\n") }
        let head = client.read(until: "data: one\n\n\r\n")
        #expect(head.hasPrefix("HTTP/1.1 200"))
        // HTTP/1.1: each write is one chunk, so a client sees where it ends.
        #expect(head.lowercased().contains("connection: close"))
        #expect(head.lowercased().contains("transfer-encoding: chunked"))
        #expect(head.hasSuffix("\r\n\r\nb\r\ndata: one\n\n\r\n"))
        usleep(100_000)  // the stream has left libmicrohttpd: nothing is buffered
        stream.write("data: two\n\n")  // sent to the socket from this thread
        #expect(client.read(until: "two\n\n\r\n") == "b\r\ndata: two\n\n\r\n")
        stream.write([SharedBytes("data: "), SharedBytes("three"), SharedBytes("\n\n")])
        #expect(client.read(until: "three\n\n\r\n") == "d\r\ndata: three\n\n\r\n")
        stream.write(SharedBytes(Array(repeating: UInt8(ascii: "x"), count: 300)), ifQueuedAtMost: nil)
        #expect(client.read(until: "x\r\n") == "12c\r\n" + String(repeating: "x", count: 300) + "\r\n")
        stream.finish()
        #expect(client.readAll() == "0\r\n\r\n", "the last chunk, then the connection closes")
        #expect(!stream.write("late"))
    }

    @Test func anHTTP10StreamIsCloseDelimited() throws {
        let box = StreamBox()
        let server = try startServer(box: box)
        defer { server.shutdown() }
        let (client, stream) = try openStream(on: server, box, version: "HTTP/1.0")
        stream.write("data: one\n\n")
        let head = client.read(until: "data: one\n\n")
        #expect(head.lowercased().contains("connection: close"))
        #expect(!head.lowercased().contains("transfer-encoding"))
        #expect(head.hasSuffix("\r\n\r\ndata: one\n\n"))
        stream.write(SharedBytes("data: two\n\n"), ifQueuedAtMost: nil)
        #expect(client.read(until: "two\n\n") == "data: two\n\n")
        stream.finish()
        #expect(client.readAll() == "", "the connection closes at the end of the stream")
    }

    @Test func aStreamLargerThanTheSocketTakesArrivesWholeAndInOrder() throws {
        let box = StreamBox()
        let server = try startServer(box: box)
        defer { server.shutdown() }
        let (client, stream) = try openStream(on: server, box, receiveBuffer: 4096)
        let piece = filler("x", count: 50_000)
        var expected = 0
        for index in 0..<40 {
            // Each event names its number, so order and completeness can be checked.
            stream.write([SharedBytes("\(index):"), piece, SharedBytes("\n")])
            expected += "\(index):".utf8.count + 50_001
        }
        #expect(stream.unsentByteCount > 0, "a client that has not read yet leaves bytes unsent")
        stream.finish()
        let all = client.readAll()
        let body = try #require(TestClient.dechunk(all[all.range(of: "\r\n\r\n")!.upperBound...]))
        #expect(body.utf8.count == expected)
        let lines = body.split(separator: "\n")
        #expect(lines.count == 40)
        #expect(
            lines.enumerated().allSatisfy { index, line in
                line.hasPrefix("\(index):x") && line.utf8.count == "\(index):".utf8.count + 50_000
            })
    }

    @Test func cancellingAStreamWhoseClientStoppedReadingClosesItAtOnce() throws {
        let box = StreamBox()
        let server = try startServer(box: box)
        defer { server.shutdown() }
        let (client, stream) = try openStream(on: server, box, receiveBuffer: 4096)
        let piece = filler("y", count: 65_536)
        for _ in 0..<64 { stream.write(piece) }  // 4 MiB: far more than the socket takes
        usleep(200_000)
        #expect(stream.unsentByteCount > 1_000_000, "the client has not read: the bytes wait")
        // libmicrohttpd waits for the socket to become writable, which it never does: the
        // cancel must not wait for that (nor for the 60 s idle timeout).
        stream.cancel()
        let deadline = Date().addingTimeInterval(5)
        while (box.terminated.load(ordering: .relaxed) == 0 || server.metrics.openStreams != 0) && Date() < deadline {
            usleep(20_000)
        }
        #expect(box.terminated.load(ordering: .relaxed) == 1)
        #expect(server.metrics.openStreams == 0)
        #expect(!stream.isOpen)
        withExtendedLifetime(client) {}  // connected, never reading, until here
    }

    @Test func idleStreamsGetHeartbeats() throws {
        let box = StreamBox()
        let server = try startServer(box: box, heartbeat: 0.3)
        defer { server.shutdown() }
        let (client, _) = try openStream(on: server, box)
        let received = client.read(until: ": hb\n\n")
        #expect(received.contains(": hb\n\n"))
    }

    /// The heartbeat pass reads the clock once, then goes through every stream while fan-outs
    /// write to them: a stream written after that reading is not idle (it got a heartbeat with
    /// every event a large fan-out sent during the pass).
    @Test func streamWrittenAfterTheHeartbeatPassBeganGetsNoHeartbeat() throws {
        let box = StreamBox()
        let server = try startServer(box: box, heartbeat: 600)
        defer { server.shutdown() }
        let (client, stream) = try openStream(on: server, box)
        let passBegan = monotonicNanoseconds()
        stream.write("data: one\n\n")
        stream.heartbeatIfIdle(now: passBegan, idleNanoseconds: 14_000_000_000)
        stream.write("data: two\n\n")
        let received = client.read(until: "data: two")
        #expect(received.contains("data: one"))
        #expect(!received.contains(": hb"))
    }

    @Test func closedClientTerminatesItsStream() throws {
        let box = StreamBox()
        let server = try startServer(box: box, heartbeat: 0.2)
        defer { server.shutdown() }
        var client: TestClient? = try TestClient(port: server.port)
        client?.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        let stream = try #require(box.next())
        client = nil  // closes the socket while the stream is suspended
        // The stream closes first (the hang-up cancels it); its termination follows when
        // libmicrohttpd has released the connection.
        let deadline = Date().addingTimeInterval(5)
        while (stream.isOpen || box.terminated.load(ordering: .relaxed) == 0 || server.metrics.openStreams != 0)
            && Date() < deadline
        {
            usleep(20_000)
        }
        #expect(!stream.isOpen)
        #expect(box.terminated.load(ordering: .relaxed) == 1)
        #expect(server.metrics.openStreams == 0)
    }

    @Test func hangUpOfAnIdleStreamIsNoticedWithoutWaitingForAHeartbeat() throws {
        let box = StreamBox()
        let server = try startServer(box: box, heartbeat: 600)
        defer { server.shutdown() }
        let stayer: TestClient? = try TestClient(port: server.port)
        stayer?.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        let staying = try #require(box.next())
        var leaver: TestClient? = try TestClient(port: server.port)
        leaver?.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        let leaving = try #require(box.next())
        #expect(server.metrics.openStreams == 2)
        leaver = nil  // closes the socket; both streams are idle and no heartbeat is due for 10 minutes
        let deadline = Date().addingTimeInterval(10)
        while leaving.isOpen && Date() < deadline { usleep(20_000) }
        #expect(!leaving.isOpen)
        #expect(staying.isOpen)
        while server.metrics.openStreams != 1 && Date() < deadline { usleep(20_000) }
        #expect(server.metrics.openStreams == 1)
        // The client that stayed still gets what is written to it.
        staying.write("data: still here\n\n")
        #expect(stayer?.read(until: "still here").contains("data: still here") == true)
    }

    @Test func shutdownWithOpenStreamsEndsThemCleanly() throws {
        let box = StreamBox()
        let server = try startServer(box: box)
        var clients: [TestClient] = []
        for _ in 0..<3 {
            clients.append(try openStream(on: server, box).0)
        }
        usleep(100_000)  // let them detach
        server.shutdown()
        #expect(box.terminated.load(ordering: .relaxed) == 3)
        for client in clients { _ = client.readAll() }  // the server closed them: no hang
        server.shutdown()  // idempotent
    }
}
