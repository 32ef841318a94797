#if canImport(Glibc)
import Glibc
#endif

/// A resolved socket address to listen on.
public struct BindAddress: Sendable {
    /// The `sockaddr_in` or `sockaddr_in6` bytes.
    let storage: [UInt8]
    public let isIPv6: Bool
    /// The numeric address ("127.0.0.1", "::1").
    public let numericHost: String
    public let port: Int

    /// Resolves `host` (a literal or a name) for listening on `port`.
    /// - Throws: `BindAddressError` when the name does not resolve or the port is out of range.
    public init(host: String, port: Int) throws {
        guard (0...65535).contains(port) else { throw BindAddressError(message: "port \(port) is not in 0...65535") }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let first = result else {
            throw BindAddressError(message: "cannot resolve host \"\(host)\": \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(result) }
        var info = first.pointee
        // Prefer IPv4 when a name resolves to both, as "localhost" usually does.
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if entry.pointee.ai_family == AF_INET {
                info = entry.pointee
                break
            }
            cursor = entry.pointee.ai_next
        }
        storage = Array(UnsafeRawBufferPointer(start: info.ai_addr, count: Int(info.ai_addrlen)))
        isIPv6 = info.ai_family == AF_INET6
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        getnameinfo(info.ai_addr, info.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
        numericHost = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.port = port
    }

    /// True for 127.0.0.0/8, ::1 and IPv4-mapped loopback: only this machine can connect.
    public var isLoopback: Bool {
        if isIPv6 {
            let address = Array(storage[8..<24])
            let loopback6 = address == [UInt8](repeating: 0, count: 15) + [1]
            let mapped = address[0..<10].allSatisfy { $0 == 0 } && address[10] == 0xFF && address[11] == 0xFF && address[12] == 127
            return loopback6 || mapped
        }
        return storage[4] == 127
    }

    /// "http://host:port/" for this address with the given (real) port.
    public func url(port: Int) -> String {
        isIPv6 ? "http://[\(numericHost)]:\(port)/" : "http://\(numericHost):\(port)/"
    }
}

/// A host or port that cannot be listened on.
public struct BindAddressError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

extension BindAddress {
    /// Why this address cannot be bound now, as the system says it ("Address already in use",
    /// "Permission denied"), or nil when a socket binds to it. Asked after libmicrohttpd failed
    /// to start, whose own message does not reach the caller.
    ///
    /// The corresponding C functions are `socket`, `setsockopt` (`SO_REUSEADDR`, as
    /// libmicrohttpd sets it), `bind` and `strerror`.
    func bindFailure() -> String? {
        let family = isIPv6 ? AF_INET6 : AF_INET
        let probe = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { return String(cString: strerror(errno)) }
        defer { close(probe) }
        var on: Int32 = 1
        setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let result = storage.withUnsafeBytes { bytes in
            bind(probe, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
        }
        return result == 0 ? nil : String(cString: strerror(errno))
    }
}

/// The server could not listen on its address.
public struct BindFailure: Error, CustomStringConvertible {
    public let url: String
    /// The system's reason, e.g. "Address already in use".
    public let reason: String
    public var description: String { "cannot listen on \(url): \(reason)" }
}
