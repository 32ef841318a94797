import ServerSupport

extension HTTPServer {
    /// Body bytes past the cap read and thrown away before the connection is simply closed.
    static let discardLimit = 64 * 1024 * 1024

    /// One access-handler call for a request (see `accessHandlerCallback`).
    ///
    /// Never answers on the first call (libmicrohttpd 0.9.75 would then close the connection),
    /// except a framing violation and an early 413 for a declared `Content-Length` over the cap
    /// when no body is on its way yet (`Expect: 100-continue`) or it is too large to read and
    /// drop; a smaller declared body over the cap is read, dropped and answered 413. Body pieces are
    /// collected up to the cap; past it they are discarded and the answer is 413 when the body
    /// ends (0.9.75 refuses a response queued mid-body).
    /// - Returns: false to close the connection.
    func handle(
        connection: MHDConnection, state: RequestState, method: UnsafePointer<CChar>,
        uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>
    ) -> Bool {
        if !state.sawHeaders {
            state.sawHeaders = true
            if let violation = FramingViolation(code: connection.header(FramingViolation.field)) {
                return answer(violation, connection: connection, state: state, method: method)
            }
            if let declared = connection.header("Content-Length") {
                let length = UInt64(declared) ?? 0
                if length > UInt64(configuration.maxBodyBytes) {
                    // A client waiting for "100 Continue" has sent no body: answer now. One that
                    // is sending it would meet a reset if the connection closed with its body
                    // unread, and could lose the answer with it: read and drop the body first,
                    // unless it is larger than that is worth.
                    if Self.expectsContinue(connection) || length > UInt64(Self.discardLimit) {
                        return answerTooLarge(connection: connection, state: state, method: method)
                    }
                    state.bodyTooLarge = true
                    return true
                }
                // Reserve a little, not what was declared: idle clients must not pin memory.
                state.body.reserveCapacity(Int(min(length, 64 * 1024)))
            }
            return true
        }
        let size = uploadDataSize.pointee
        if size > 0 {
            uploadDataSize.pointee = 0
            if state.responded { return true }
            if state.bodyTooLarge {
                // libmicrohttpd 0.9.75 cannot queue a response while a body is arriving: discard
                // the rest and answer 413 at its end, unless it goes on far past the cap.
                state.discarded += size
                return state.discarded <= Self.discardLimit
            }
            if state.body.count + size > configuration.maxBodyBytes {
                state.bodyTooLarge = true
                state.discarded = state.body.count + size
                state.body = []
                return true
            }
            if let uploadData {
                state.body.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: size))
            }
            return true
        }
        if state.responded { return true }
        if state.offloaded {
            // Called again after the resume (never before: the connection was suspended).
            guard let response = state.answer.withLock({ $0.take() }) else { return true }
            defer { runPutOff(of: state) }  // the answer goes out as this call returns
            return queue(response, connection: connection, state: state, method: String(cString: method))
        }
        if let violation = FramingViolation(code: connection.trailer(FramingViolation.field)) {
            return answer(violation, connection: connection, state: state, method: method)
        }
        if state.bodyTooLarge { return answerTooLarge(connection: connection, state: state, method: method) }

        let methodName = HTTPMethod(String(cString: method))
        let headers = connection.headers()
        let response: Response
        do {
            guard state.targetIsUTF8 else {
                throw HTTPError(.badRequest, "The request target holds bytes that are not UTF-8; percent-encode them.")
            }
            let request = try Request(method: methodName, target: state.rawURI, headers: headers, body: state.body)
            state.body = []
            if Self.runsOffThread(methodName) {
                offload(
                    { [self] in
                        defer { HeapTrim.afterRequest(bodyBytes: request.body.count) }
                        return respondResolving(to: request)
                    }, connection: connection, state: state)
                return true
            }
            response = respond(to: request)
            if let make = response.maker {
                offload(
                    { [self] in finished(make(), method: request.method, requestHeaders: request.headers) },
                    connection: connection, state: state)
                return true
            }
        } catch let error as any HTTPResponseError {
            response = shaped(error.response, requestHeaders: headers)
        } catch {
            response = shaped(HTTPError(.badRequest).response, requestHeaders: headers)
        }
        return queue(response, connection: connection, state: state, method: methodName.rawValue)
    }

    /// True when the request asks for "100 Continue" before sending its body.
    private static func expectsContinue(_ connection: MHDConnection) -> Bool {
        guard let expect = connection.header("Expect") else { return false }
        return expect.lowercased().contains("100-continue")
    }

    private func answerTooLarge(connection: MHDConnection, state: RequestState, method: UnsafePointer<CChar>) -> Bool {
        let error = HTTPError(
            .contentTooLarge, "The request body exceeds the limit of \(configuration.maxBodyBytes) bytes.",
            headers: ["Connection": "close"])
        return queue(error.response, connection: connection, state: state, method: String(cString: method))
    }

    /// Answers a request the framing guard refused (at once, so libmicrohttpd reads no body and
    /// closes the connection after the answer).
    private func answer(
        _ violation: FramingViolation, connection: MHDConnection, state: RequestState,
        method: UnsafePointer<CChar>
    ) -> Bool {
        state.framingViolation = true
        return queue(violation.error.response, connection: connection, state: state, method: String(cString: method))
    }

    /// Hands a response to libmicrohttpd; on failure the connection is closed.
    private func queue(_ response: Response, connection: MHDConnection, state: RequestState, method: String) -> Bool {
        state.responded = true
        do {
            let stream = try queueOrThrow(response, connection: connection, isHead: method == "HEAD", chunked: state.isHTTP11)
            record(status: response.status.code, state: state, method: method)
            if let (stream, setup) = stream { startStream(stream, setup: setup) }
            return true
        } catch {
            Log.error("cannot send the response to \(method) \(loggedTarget(state)): \(error)")
            return false
        }
    }

    /// Queues the response; a stream's setup runs after (never for `HEAD`, which gets the
    /// stream's header fields alone). A stream's body is chunked when `chunked` (an HTTP/1.1 client),
    /// else close-delimited.
    private func queueOrThrow(
        _ response: Response, connection: MHDConnection, isHead: Bool,
        chunked: Bool
    ) throws -> (ResponseStream, StreamSetup)? {
        let mhdResponse: OpaquePointer
        var stream: (ResponseStream, StreamSetup)?
        switch response.body {
        case .bytes where response.notModifiedLength != nil:
            mhdResponse = try MHDResponse.notModified(length: response.notModifiedLength ?? 0)
        case .bytes(let bytes):
            mhdResponse = try MHDResponse.fromBytes(bytes)
        case .prepared(let prepared):
            try connection.queue(prepared.pointer, status: prepared.status.code)
            return nil
        case .stream where isHead:
            mhdResponse = try MHDResponse.headOfStream()
        case .stream(let setup):
            let created = ResponseStream(heartbeat: setup.heartbeat)
            mhdResponse = try MHDResponse.stream(created, blockSize: setup.blockSize, chunked: chunked)
            stream = (created, setup)
        }
        defer { MHDResponse.destroy(mhdResponse) }
        try MHDResponse.addHeaders(response.headers, to: mhdResponse)
        if let (created, _) = stream {
            created.attach(to: connection, owner: streamSockets.withLock { $0 }, chunked: chunked)
            metrics.streamOpened()
            streams.add(created)
            created.onTermination { [self, created] in
                streams.remove(created)
                metrics.streamClosed()
            }
        }
        try connection.queue(mhdResponse, status: response.status.code)
        return stream
    }

    private func startStream(_ stream: ResponseStream, setup: StreamSetup) {
        setup.start(stream)
    }

    /// The request target as logs may show it (see `ServerConfiguration.redactedQueryNames`).
    private func loggedTarget(_ state: RequestState) -> String {
        LogRedaction.target(state.rawURI, hiding: configuration.redactedQueryNames)
    }

    private func record(status: Int, state: RequestState, method: String) {
        let elapsed = monotonicNanoseconds() &- state.started
        metrics.responded(status: status, nanoseconds: elapsed)
        if configuration.logRequests && Log.isEnabled(.info) {
            let micros = elapsed / 1000
            let fraction = micros % 1000
            let padded = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
            let redacted = loggedTarget(state)
            let target = redacted.utf8.count <= 200 ? redacted : String(redacted.prefix(200)) + "..."
            let note = state.framingViolation ? " (refused by the framing checks)" : ""
            Log.info("\(method) \(target) \(status) \(micros / 1000).\(padded)ms\(note)")
        }
    }
}
