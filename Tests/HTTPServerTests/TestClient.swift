import Foundation

@testable import HTTPServer

#if canImport(Glibc)
import Glibc
#endif

/// A tiny blocking HTTP/1.1 client over a TCP socket, for live tests (raw bytes in, raw bytes out).
final class TestClient {
    private let fd: Int32

    struct Reply {
        let status: Int
        let headers: [String: String]
        let body: String
    }

    /// - Parameter receiveBuffer: `SO_RCVBUF` set before connecting (a client that reads
    ///   slowly, or not at all, fills it soon).
    init(port: Int, timeoutSeconds: Int = 5, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw TestClientError.connect
        }
    }

    deinit { close(fd) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// Reads whatever arrives next (up to 64 KiB); "" on end of stream or timeout.
    func readSome() -> String {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : ""
    }

    /// Reads until the peer closes or the timeout passes.
    func readAll() -> String {
        var all = ""
        while case let chunk = readSome(), !chunk.isEmpty { all += chunk }
        return all
    }

    /// Reads until `text` has arrived (or end of stream / timeout); returns everything read.
    func read(until text: String) -> String {
        var all = ""
        while !all.contains(text), case let chunk = readSome(), !chunk.isEmpty { all += chunk }
        return all
    }

    /// Sends one request with `Connection: close` and parses the whole reply.
    static func request(port: Int, _ method: String, _ target: String, headers: [String] = [], body: String = "") throws -> Reply {
        let client = try TestClient(port: port)
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.utf8.count)\r\n" }
        client.send(head + "\r\n" + body)
        return parse(client.readAll())
    }

    /// The payload of a chunked body (ASCII chunk heads, no extensions), or nil when it is not one
    /// or does not end with the last chunk.
    static func dechunk(_ body: Substring) -> String? {
        var rest = Substring(body)
        var payload = ""
        while let lineEnd = rest.range(of: "\r\n") {
            guard let size = Int(rest[..<lineEnd.lowerBound], radix: 16) else { return nil }
            rest = rest[lineEnd.upperBound...]
            if size == 0 { return rest == "\r\n" ? payload : nil }
            guard rest.utf8.count >= size + 2 else { return nil }
            let end = rest.utf8.index(rest.startIndex, offsetBy: size)
            guard rest[end...].hasPrefix("\r\n") else { return nil }
            payload += rest[..<end]
            rest = rest[rest.utf8.index(end, offsetBy: 2)...]
        }
        return nil
    }

    static func parse(_ raw: String) -> Reply {
        guard let split = raw.range(of: "\r\n\r\n") else { return Reply(status: 0, headers: [:], body: raw) }
        let lines = raw[..<split.lowerBound].components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Reply(status: status, headers: headers, body: String(raw[split.upperBound...]))
    }
}

enum TestClientError: Error { case connect }

extension HTTPServer {
    /// A server of `router` on a free port with one server thread (so a held connection's
    /// thread is the only one), not logging requests; started.
    static func startedOnOneThread(_ router: Router) throws -> HTTPServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threadCount = 1
        configuration.logRequests = false
        let server = try HTTPServer(configuration: configuration, router: router)
        try server.start()
        return server
    }
}
