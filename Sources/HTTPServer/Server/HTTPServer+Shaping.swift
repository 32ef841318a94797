import ServerSupport

extension HTTPServer {
    /// Fields a request may carry once only: a second `Authorization` or `Origin` is not quietly
    /// ignored (which one would a proxy in front have acted on?) but answered 400.
    static let singletonFields = ["Authorization", "Origin"]

    /// The answer to a parsed request: 400 for a repeated `singletonFields` field, a CORS
    /// preflight, else the router's; then `finished` (shaped, and 304 when fresh).
    func respond(to request: Request) -> Response {
        if let repeated = Self.singletonFields.first(where: { request.headers.occurrences(of: $0) > 1 }) {
            let error = HTTPError(.badRequest, "The request carries \(repeated) more than once; send it once.")
            return finished(error.response, method: request.method, requestHeaders: request.headers)
        }
        if let preflight = cors.preflight(method: request.method, headers: request.headers) { return preflight }
        let response = router.respond(to: request) { request, error in
            Log.error("\(request.method) \(request.path) failed: \(String(reflecting: error))")
        }
        guard let validated = response.validated else {
            return finished(response, method: request.method, requestHeaders: request.headers)
        }
        // A `validated` answer: a 304 from the memo when the request holds what was sent, else
        // made now and remembered.
        let key = NotModifiedMemo.Key(
            target: request.rawQuery.isEmpty ? request.path : request.path + "?" + request.rawQuery,
            gzip: AcceptEncoding.acceptsGzip(request.headers["Accept-Encoding"]),
            identityTag: validated.etag)
        if request.method == .get || request.method == .head,
            var notModified = notModifiedMemo.notModified(key, ifNoneMatch: request.headers["If-None-Match"])
        {
            cors.apply(origin: cors.allowedOrigin(request.headers), to: &notModified.headers)
            return notModified
        }
        let shaped = shaped(validated.make(), requestHeaders: request.headers)
        notModifiedMemo.remember(key, response: shaped)
        return Self.notModified(shaped, method: request.method, requestHeaders: request.headers)
    }

    /// `shaped`, then answered 304 when the request's `If-None-Match` names the shaped answer's
    /// `ETag` (`notModified`).
    func finished(_ response: Response, method: HTTPMethod, requestHeaders: HTTPHeaders) -> Response {
        Self.notModified(shaped(response, requestHeaders: requestHeaders), method: method, requestHeaders: requestHeaders)
    }

    /// The 304 for a `GET` or `HEAD` whose `If-None-Match` names the `ETag` of `response` (a 200
    /// as this request gets it: its coding decided, so a gzip answer's tag is the `-gzip` one),
    /// else `response` (RFC 9110 section 13.1.2, weak comparison). Tests that call a router
    /// without a server apply it as the server does (`RouterClient`).
    ///
    /// The 304 carries the 200's `ETag`, `Vary`, `Cache-Control`, `Content-Location`, `Expires`
    /// and `Last-Modified` and its CORS fields (RFC 9110 section 15.4.5), no other
    /// representation metadata, and the 200's body length as `Content-Length`
    /// (`Response.notModifiedLength`, RFC 9110 section 8.6: libmicrohttpd 0.9.75 gives an empty
    /// answer `Content-Length: 0`, and one of unknown length `Transfer-Encoding: chunked`).
    public static func notModified(_ response: Response, method: HTTPMethod, requestHeaders: HTTPHeaders) -> Response {
        guard method == .get || method == .head, response.status == .ok, response.maker == nil,
            let etag = response.headers["ETag"], let condition = requestHeaders["If-None-Match"],
            EntityTag.noneMatchNames(condition, etag), let length = response.bodyBytes?.count
        else { return response }
        if case .prepared(let prepared) = response.body, let kept = try? prepared.notModifiedForm() {
            return Response(prepared: kept)
        }
        var answer = Response(status: .notModified, headers: notModifiedFields(of: response.headers))
        answer.notModifiedLength = length
        return answer
    }

    /// The fields of a 200's `headers` that its 304 repeats: `notModifiedFields` and, unless
    /// `cors` is false, the CORS fields, in their order.
    static func notModifiedFields(of headers: HTTPHeaders, cors: Bool = true) -> HTTPHeaders {
        var kept = HTTPHeaders()
        for field in headers {
            let name = field.name.lowercased()
            if notModifiedFields.contains(name) || (cors && name.hasPrefix("access-control-")) { kept.add(field.name, field.value) }
        }
        return kept
    }

    /// The fields a 304 repeats from its 200 (RFC 9110 section 15.4.5), lower-cased.
    static let notModifiedFields: Set<String> = ["etag", "vary", "cache-control", "content-location", "expires", "last-modified"]

    /// `response` as this request gets it (API.md section 2): gzip-compressed when the request
    /// accepts gzip and the answer is compressible (`Compressibility`), with `Vary:
    /// Accept-Encoding` either way, and with the CORS headers of its `Origin`.
    ///
    /// A prepared answer takes its kept variant (compressed once per answer); a byte answer is
    /// compressed now; a stream gets only the CORS headers. A compressed answer's `ETag` is the
    /// identity answer's with `-gzip` (`EntityTag.gzip`): strong validators differ per coding.
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
                    if let etag = shaped.headers["ETag"] { shaped.headers["ETag"] = EntityTag.gzip(etag) }
                }
            }
        case .stream:
            break
        }
        cors.apply(origin: origin, to: &shaped.headers)
        return shaped
    }
}
