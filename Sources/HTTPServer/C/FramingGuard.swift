import CMicroHTTPD
import Foundation
import Synchronization

/// One daemon's framing guard (the C side is in `CMicroHTTPD/framing_*.c`): strict request
/// framing below libmicrohttpd's parser, and the deadlines that cut slow clients.
///
/// Create it before the daemon (its option goes into the daemon's options), start the sweeper
/// after, stop it before stopping the daemon; the guard is freed when this object is.
final class FramingGuard: Sendable {
    private struct Pointer: @unchecked Sendable { let raw: OpaquePointer }

    private let pointer: Pointer
    private let stopped = Atomic<Bool>(false)
    private let onSweep: @Sendable (CMicroHTTPD_SweepResult) -> Void

    /// - Parameter onSweep: called with each sweep's result that closed any connection.
    /// - Throws: `MHDError` when the guard's table cannot be allocated.
    ///
    /// The corresponding C function is `CMicroHTTPD_guard_create`.
    /// - Parameters:
    ///   - connectionsPerAddress: most connections open at once from one address (0: no cap).
    ///   - connectionLimit: most connections open at once in all (0: no cap).
    init(
        configuration: ServerConfiguration, connectionsPerAddress: Int, connectionLimit: Int,
        onSweep: @escaping @Sendable (CMicroHTTPD_SweepResult) -> Void
    ) throws {
        let limits = CMicroHTTPD_GuardLimits(
            max_head_bytes: UInt32(max(1024, configuration.maxRequestHeadBytes)),
            max_fields: UInt32(max(8, configuration.maxRequestHeaderFields)),
            head_timeout_ns: Self.nanoseconds(configuration.requestHeadTimeout),
            body_grace_ns: Self.nanoseconds(configuration.requestBodyTimeout),
            body_min_rate: UInt64(max(0, configuration.requestBodyMinimumRate)),
            max_per_address: UInt32(clamping: max(0, connectionsPerAddress)),
            max_connections: UInt32(clamping: max(0, connectionLimit)))
        pointer = Pointer(raw: try mhdCall("CMicroHTTPD_guard_create") { CMicroHTTPD_guard_create(limits) })
        self.onSweep = onSweep
    }

    deinit { CMicroHTTPD_guard_destroy(pointer.raw) }

    /// The daemon option that puts this guard in front of every connection.
    var option: MHD_OptionItem { CMicroHTTPD_option_guard(pointer.raw) }

    /// The accept policy that enforces the connection caps, and its argument, for `MHD_start_daemon`.
    var acceptPolicy: (MHD_AcceptPolicyCallback, UnsafeMutableRawPointer) {
        (CMicroHTTPD_guard_accept_policy(), UnsafeMutableRawPointer(pointer.raw))
    }

    /// Connections open now, libmicrohttpd's and detached streams'.
    ///
    /// The corresponding C function is `CMicroHTTPD_guard_open_connections`.
    var openConnections: Int { Int(CMicroHTTPD_guard_open_connections(pointer.raw)) }

    /// Takes the connection on `socket` out of the count as its stream detaches; the stream
    /// carries the result until `releaseDetached`. Call it on the connection's thread.
    ///
    /// The corresponding C function is `CMicroHTTPD_guard_detach`.
    func detach(socket: Int32) -> OpaquePointer? { CMicroHTTPD_guard_detach(socket) }

    /// Gives back a detached stream's count when its socket closes (nil: nothing).
    ///
    /// The corresponding C function is `CMicroHTTPD_guard_release_detached`.
    func releaseDetached(_ count: OpaquePointer?) {
        if let count { CMicroHTTPD_guard_release_detached(pointer.raw, count) }
    }

    /// Starts the thread that closes connections past their deadlines, four times a second.
    ///
    /// The corresponding C function is `CMicroHTTPD_guard_sweep`.
    func startSweeping() {
        let thread = Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                usleep(250_000)
                let result = CMicroHTTPD_guard_sweep(pointer.raw)
                if result.slow_heads + result.slow_bodies > 0 { onSweep(result) }
            }
        }
        thread.name = "deadlines"
        thread.start()
    }

    /// Ends the sweeping thread within a quarter of a second.
    func stopSweeping() { stopped.store(true, ordering: .relaxed) }

    private static func nanoseconds(_ seconds: Double) -> UInt64 {
        seconds > 0 ? UInt64(min(seconds, 1e9) * 1e9) : 0
    }
}

/// A request the framing guard refused: the code its marker field carries.
struct FramingViolation {
    let code: UInt32

    /// The header (or trailer) field that carries a violation's code to the access handler.
    static let field = String(cString: CMicroHTTPD_VIOLATION_FIELD)

    /// The violation a request's `field` value names (found in its head, or in the trailers of
    /// its chunked body), if any.
    init?(code value: String?) {
        guard let value, let code = UInt32(value) else { return nil }
        self.code = code
    }

    /// The problem+json answer; the connection is closed after it.
    var error: HTTPError {
        HTTPError(
            HTTPStatus(Int(CMicroHTTPD_violation_status(code))),
            String(cString: CMicroHTTPD_violation_detail(code)),
            headers: ["Connection": "close"])
    }
}
