/// A response: status, header fields and a body of bytes or a stream.
///
/// `Content-Length`, `Date` and chunked framing are added by the server; `HEAD` requests get
/// the headers of the `GET` answer without the body.
public struct Response: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Body
    /// Set for an answer too costly to make on the connection's thread (`Response.offThread`).
    public private(set) var maker: (@Sendable () -> Response)?
    /// Set for an answer whose `ETag` is known before its body is made (`Response.validated`).
    public private(set) var validated: Validated?
    /// For a 304 made by the server from a 200 (`HTTPServer.notModified`): that 200's body
    /// length, sent as `Content-Length` (RFC 9110 section 8.6) with no body.
    public internal(set) var notModifiedLength: Int?

    /// What follows the header fields.
    public enum Body: Sendable {
        /// A complete body, sent with `Content-Length`.
        case bytes([UInt8])
        /// A body produced over time by a `ResponseStream`, close-delimited. See `Response.stream`.
        case stream(StreamSetup)
        /// A response built once and shared; see `PreparedResponse`.
        case prepared(PreparedResponse)
    }

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    /// An answer that takes long to make (e.g. serializing a large document the first time):
    /// `make` runs on the server's handler queue, not on the connection's thread, which serves
    /// other connections meanwhile (`HTTPServer+Offload`); its response is sent as any other.
    public static func offThread(_ make: @escaping @Sendable () -> Response) -> Response {
        var response = Response()
        response.maker = make
        return response
    }

    /// An answer costly to make (a page rendered per request) whose identity `ETag` is known
    /// first: the server answers a request that already holds it with a 304 without calling
    /// `make`, when it has sent that answer before (`NotModifiedMemo` keeps the 200's length
    /// and cache fields by request target); otherwise `make` runs on the connection's thread and
    /// its answer (which must carry `etag`) is sent as any other.
    public static func validated(etag: String, _ make: @escaping @Sendable () -> Response) -> Response {
        var response = Response()
        response.validated = Validated(etag: etag, make: make)
        return response
    }

    /// The identity `ETag` and maker of a `validated` answer.
    public struct Validated: Sendable {
        public let etag: String
        let make: @Sendable () -> Response
    }

    /// The answer itself: `make`'s for an `offThread` or `validated` one (for callers without a
    /// server, e.g. tests calling a router), else this one.
    public func resolved() -> Response { maker?() ?? validated?.make() ?? self }

    /// The body bytes, or nil for a stream (handy in tests).
    public var bodyBytes: [UInt8]? {
        switch body {
        case .bytes(let bytes): bytes
        case .prepared(let prepared): prepared.bytes
        case .stream: nil
        }
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// A `text/html; charset=utf-8` response from bytes the caller has already escaped.
    public static func html(_ bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: bytes)
    }

    /// An `application/json` response from serialized JSON bytes.
    /// The body ends with a line feed (added when `bytes` lack one), so that a shell prompt after
    /// `curl` starts on its own line; JSON allows the whitespace. With `terminated: false` the
    /// bytes go as they are, shared and not copied (a list's document, megabytes kept once).
    public static func json(_ bytes: [UInt8], status: HTTPStatus = .ok, terminated: Bool = true) -> Response {
        var body = bytes
        if terminated && body.last != 0x0A { body.append(0x0A) }
        return Response(status: status, headers: ["Content-Type": "application/json"], body: body)
    }

    /// The RFC 9457 `application/problem+json` answer for an error.
    public static func problem(_ error: some HTTPResponseError) -> Response {
        error.response
    }

    /// A streaming response (Server-Sent Events and the like).
    ///
    /// `start` runs once on the server thread right after the status and headers are queued;
    /// keep the `ResponseStream` it receives and `write` to it from any thread. Once the head is
    /// sent the stream owns its socket and writes go straight to it (no CPU while idle).
    /// - Parameters:
    ///   - heartbeat: bytes written whenever the stream has been idle for the server's heartbeat
    ///     interval (at most 15 s by default), e.g. `Array(": keep-alive\n\n".utf8)` for SSE.
    ///     Heartbeats are how a stream notices a vanished client.
    ///   - blockSize: the size of the buffer libmicrohttpd keeps for the stream (every stream
    ///     holds one). Bytes go to the socket straight from the writer's buffers; this buffer
    ///     only carries what a full socket could not take yet, so a small one costs nothing in
    ///     speed.
    public static func stream(
        status: HTTPStatus = .ok,
        headers: HTTPHeaders,
        heartbeat: [UInt8]? = nil,
        blockSize: Int = 256,
        start: @escaping @Sendable (ResponseStream) -> Void
    ) -> Response {
        var response = Response(status: status, headers: headers)
        response.body = .stream(StreamSetup(heartbeat: heartbeat, blockSize: blockSize, start: start))
        return response
    }
}

/// How to set up a streaming body; made by `Response.stream`.
public struct StreamSetup: Sendable {
    let heartbeat: [UInt8]?
    let blockSize: Int
    let start: @Sendable (ResponseStream) -> Void
}
