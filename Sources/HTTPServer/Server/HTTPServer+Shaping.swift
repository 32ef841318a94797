import ServerSupport
extension HTTPServer {
    /// The answer to a parsed request: a CORS preflight, else the router's; then `shaped`.
    func respond(to request: Request) -> Response {
        if let preflight = cors.preflight(method: request.method, headers: request.headers) { return preflight }
        let response = router.respond(to: request) { request, error in
            Log.error("\(request.method) \(request.path) failed: \(String(reflecting: error))")
        }
        return shaped(response, requestHeaders: request.headers)
    }

    /// `response` as this request gets it (API.md section 2): gzip-compressed when the request
    /// accepts gzip and the answer is compressible (`Compressibility`), with `Vary:
    /// Accept-Encoding` either way, and with the CORS headers of its `Origin`.
    ///
    /// A prepared answer takes its kept variant (compressed once per answer); a byte answer is
    /// compressed now; a stream gets only the CORS headers.
    func shaped(_ response: Response, requestHeaders: HTTPHeaders) -> Response {
        let origin = cors.allowedOrigin(requestHeaders)
        let gzip = AcceptEncoding.acceptsGzip(requestHeaders["Accept-Encoding"])
        var shaped = response
        switch response.body {
        case .prepared(let prepared):
            do {
                return Response(prepared: try prepared.variant(gzip: gzip, cors: cors, origin: origin))
            } catch {
                Log.error("cannot prepare a variant of an answer: \(error)")
                return response
            }
        case .bytes(let bytes):
            if Compressibility.isEligible(status: response.status, headers: response.headers, size: bytes.count) {
                shaped.headers.addVary("Accept-Encoding")
                if gzip {
                    shaped.body = .bytes(Gzip.compress(bytes))
                    shaped.headers["Content-Encoding"] = "gzip"
                }
            }
        case .stream:
            break
        }
        cors.apply(origin: origin, to: &shaped.headers)
        return shaped
    }
}
