import Dispatch
import ServerSupport
import Synchronization

/// Writes run off libmicrohttpd's threads.
///
/// libmicrohttpd serves each connection on the worker thread that accepted it (one epoll loop
/// per core), so a handler that takes long stalls every other connection of that worker: a
/// reader whose connection landed beside a 600 ms PATCH or a 3 s PUT of a million rows waited
/// for the whole write (docs/BENCHMARKS.md, `big_patch.py`). A request whose method changes
/// something (POST, PUT, PATCH, DELETE) is therefore answered on `handlerQueue`: its connection
/// is suspended, the handler runs, the answer is kept in the request's state and the connection
/// resumed; libmicrohttpd then calls the access handler again, which queues the answer. Reads,
/// the hot path, stay on the worker (no thread hop), unless their handler answers
/// `Response.offThread` (a large document serialized for the first time). A connection holds
/// one request at a time, so answers keep their order. What a handler put off until its answer
/// is on its way (`AfterAnswer`: a write's publishing to live subscribers) runs once the answer
/// is queued (`runPutOff`).
extension HTTPServer {
    /// Where offloaded handlers run: a thread each (`HandlerThreads`), so a write that waits for
    /// its list never holds up the handlers of other lists; writes to one list are serialised
    /// by the registry, not here.
    static let handlerQueue = HandlerThreads()

    /// Whether requests of this method are answered off the connection's thread.
    static func runsOffThread(_ method: HTTPMethod) -> Bool {
        method == .post || method == .put || method == .patch || method == .delete
    }

    /// Suspends the connection and makes the answer on `handlerQueue`; the access handler's
    /// next call (after the resume) queues it. Writes pass the whole `respond(to:)`; a read
    /// whose handler answered `Response.offThread` passes its maker (shaped as usual).
    func offload(_ make: @escaping @Sendable () -> Response, connection: MHDConnection, state: RequestState) {
        state.offloaded = true
        handlersInFlight.enter()
        connection.suspend()
        Self.handlerQueue.async { [self] in
            let (response, putOff) = AfterAnswer.collecting(make)
            state.answer.withLock {
                $0 = response
                state.putOff = putOff.isEmpty ? nil : putOff
            }
            connection.resume()
            handlersInFlight.leave()
        }
    }

    /// Runs what the handler of `state`'s request put off (quick work: it runs on the
    /// connection's thread), once: when its answer is queued, else when the request ends (a
    /// client gone while its write ran gets no answer, but the write's subscribers must get it).
    func runPutOff(of state: RequestState) {
        guard let putOff = state.putOff else { return }
        state.putOff = nil
        putOff.run()
    }

    /// `respond(to:)`, with an `offThread` answer made at once (for a caller already off the
    /// connection's thread).
    func respondResolving(to request: Request) -> Response {
        let response = respond(to: request)
        guard let make = response.maker else { return response }
        return finished(make(), method: request.method, requestHeaders: request.headers)
    }

    /// Waits (up to `seconds`) for offloaded handlers to finish and resume their connections:
    /// libmicrohttpd cannot stop with a connection suspended.
    func waitForOffloadedHandlers(seconds: Int) {
        if handlersInFlight.wait(timeout: .now() + .seconds(seconds)) == .timedOut {
            Log.warning("stopping with write handlers still running after \(seconds) s")
        }
    }
}
