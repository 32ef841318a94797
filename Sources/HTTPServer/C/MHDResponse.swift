import CMicroHTTPD
import Synchronization

/// Builds libmicrohttpd responses from Swift bytes without copying them.
enum MHDResponse {
    /// Keeps an array's storage alive while libmicrohttpd sends from it.
    final class ByteBox {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    /// A response whose body points into `bytes` (retained until libmicrohttpd frees the response).
    /// The corresponding C function is `MHD_create_response_from_buffer_with_free_callback_cls`.
    static func fromBytes(_ bytes: [UInt8]) throws -> OpaquePointer {
        guard !bytes.isEmpty else {
            return try mhdCall("MHD_create_response_from_buffer") {
                MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
            }
        }
        let box = Unmanaged.passRetained(ByteBox(bytes))
        let base = box.takeUnretainedValue().bytes.withUnsafeBufferPointer { UnsafeMutableRawPointer(mutating: $0.baseAddress!) }
        do {
            return try mhdCall("MHD_create_response_from_buffer_with_free_callback_cls") {
                MHD_create_response_from_buffer_with_free_callback_cls(bytes.count, base, byteBoxFreeCallback, box.toOpaque())
            }
        } catch {
            box.release()
            throw error
        }
    }

    /// A 304 whose `Content-Length` is `length`, the 200's (RFC 9110 section 8.6), with no body:
    /// libmicrohttpd 0.9.75 sends a response's size as `Content-Length` even on a 304 (an empty
    /// buffer gives `Content-Length: 0`, an unknown size `Transfer-Encoding: chunked`), and sends
    /// no body for a 304 (it never calls the reader).
    /// The corresponding C function is `MHD_create_response_from_callback`.
    static func notModified(length: Int) throws -> OpaquePointer {
        try mhdCall("MHD_create_response_from_callback") {
            MHD_create_response_from_callback(UInt64(length), 256, endOfStreamReaderCallback, nil, nil)
        }
    }

    /// The answer to `HEAD` for a streaming response: its header fields, no body, and no
    /// `Content-Length` (the stream has none). libmicrohttpd 0.9.75 sends a chunked response's
    /// last chunk even to `HEAD`, and gives an empty one `Content-Length: 0`; an HTTP/1.0-style
    /// response of unknown size avoids both (the connection is closed after it).
    /// The corresponding C functions are `MHD_create_response_from_callback` and `MHD_set_response_options`.
    static func headOfStream() throws -> OpaquePointer {
        let response = try mhdCall("MHD_create_response_from_callback") {
            MHD_create_response_from_callback(CMicroHTTPD_SIZE_UNKNOWN, 256, endOfStreamReaderCallback, nil, nil)
        }
        do {
            try mhdCall("MHD_set_response_options") { CMicroHTTPD_response_http10_compatible(response) }
        } catch {
            destroy(response)
            throw error
        }
        return response
    }

    /// A response whose body `stream` writes (see `ResponseStream`): libmicrohttpd holds a
    /// reference to the stream until it frees the response (`streamFreeCallback`). With `chunked`,
    /// libmicrohttpd's head says `Transfer-Encoding: chunked` (the stream frames its writes) and
    /// `Connection: close`; without, the body is close-delimited (for HTTP/1.0 clients).
    /// The corresponding C functions are `MHD_create_response_from_callback`, `MHD_set_response_options`
    /// and `MHD_add_response_header`.
    static func stream(_ stream: ResponseStream, blockSize: Int, chunked: Bool) throws -> OpaquePointer {
        let retained = Unmanaged.passRetained(stream)
        let response: OpaquePointer
        do {
            response = try mhdCall("MHD_create_response_from_callback") {
                MHD_create_response_from_callback(
                    CMicroHTTPD_SIZE_UNKNOWN, max(256, blockSize),
                    streamReaderCallback, retained.toOpaque(), streamFreeCallback)
            }
        } catch {
            retained.release()
            throw error
        }
        do {
            if chunked {
                try mhdCall("MHD_add_response_header(Connection)") { MHD_add_response_header(response, "Connection", "close") }
            } else {
                try mhdCall("MHD_set_response_options") { CMicroHTTPD_response_close_delimited(response) }
            }
        } catch {
            destroy(response)  // frees the stream's reference through the free callback
            throw error
        }
        return response
    }

    /// Drops this reference to a response (libmicrohttpd keeps one per connection it is queued on).
    /// The corresponding C function is `MHD_destroy_response`.
    static func destroy(_ response: OpaquePointer) { MHD_destroy_response(response) }

    /// Adds every header field to a response.
    /// The corresponding C function is `MHD_add_response_header`.
    static func addHeaders(_ headers: HTTPHeaders, to response: OpaquePointer) throws {
        for field in headers {
            try mhdCall("MHD_add_response_header(\(field.name))") { MHD_add_response_header(response, field.name, field.value) }
        }
    }

    /// `response` with `headers` added; destroyed (and the error thrown) when one cannot be.
    static func withHeaders(_ headers: HTTPHeaders, _ response: OpaquePointer) throws -> OpaquePointer {
        do {
            try addHeaders(headers, to: response)
        } catch {
            destroy(response)
            throw error
        }
        return response
    }
}

/// Releases the `ByteBox` behind a response body.
func byteBoxFreeCallback(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<MHDResponse.ByteBox>.fromOpaque(cls).release()
}

/// A complete response built once and sent many times (a static file): libmicrohttpd shares one
/// copy of its status line, headers and bytes among all connections.
///
/// Use it as `Response(prepared:)`. The server sends the prepared status, headers and bytes;
/// changing that `Response`'s headers has no effect on the wire.
///
/// A compressible answer (`Compressibility`) gets `Vary: Accept-Encoding` here, and its gzip and
/// CORS forms, and the 304 of each, are made on first use and kept with it (`variant`,
/// `notModifiedForm`): a request for it builds nothing.
public final class PreparedResponse: @unchecked Sendable {
    let pointer: OpaquePointer
    public let status: HTTPStatus
    public let headers: HTTPHeaders
    public let bytes: [UInt8]
    /// Whether a client that accepts gzip gets it compressed.
    let compressible: Bool
    let variants = Mutex(Variants())
    /// This answer's 304, made on first use (`notModifiedForm`).
    let notModified = Mutex<PreparedResponse?>(nil)
    /// For a 304: the length of its 200's body, sent as `Content-Length`.
    let notModifiedLength: Int?

    /// Prepares a byte response (a streaming one cannot be prepared).
    /// - Throws: `HTTPError` 500 for a streaming response; `MHDError` if libmicrohttpd refuses a header.
    public init(_ response: Response) throws {
        guard case .bytes(let bytes) = response.body else {
            throw HTTPError(.internalServerError, "A streaming response cannot be prepared.")
        }
        var headers = response.headers
        compressible = Compressibility.isEligible(status: response.status, headers: headers, size: bytes.count)
        if compressible { headers.addVary("Accept-Encoding") }
        let pointer = try MHDResponse.withHeaders(headers, MHDResponse.fromBytes(bytes))
        self.pointer = pointer
        self.status = response.status
        self.headers = headers
        self.bytes = bytes
        notModifiedLength = nil
    }

    /// The 304 of `answer`: its fields that a 304 repeats and its body length (see
    /// `HTTPServer.notModified`).
    init(notModifiedOf answer: PreparedResponse) throws {
        let headers = HTTPServer.notModifiedFields(of: answer.headers)
        let pointer = try MHDResponse.withHeaders(headers, MHDResponse.notModified(length: answer.bytes.count))
        self.pointer = pointer
        status = .notModified
        self.headers = headers
        bytes = []
        compressible = false
        notModifiedLength = answer.bytes.count
    }

    deinit { MHDResponse.destroy(pointer) }
}

extension Response {
    /// Sends a prepared response (its status, headers and bytes).
    public init(prepared: PreparedResponse) {
        self.init(status: prepared.status, headers: prepared.headers)
        body = .prepared(prepared)
        notModifiedLength = prepared.notModifiedLength
    }
}
