/// An error that carries the HTTP answer it stands for: a status, an RFC 9457 problem detail and
/// any extra header fields (`Retry-After`, `WWW-Authenticate`, `Allow`).
///
/// The router answers any conforming error a handler throws with its `response`
/// (`application/problem+json`); any other error becomes a 500 whose body says nothing about the
/// cause. Declare the conformance beside the error type; for a type whose module must not know
/// HTTP (ListModel, ListStore), in an extension in the server.
///
/// ```swift
/// extension RegistryError: HTTPResponseError {
///     var status: HTTPStatus { .notFound }
///     var problemDetail: String? { "There is no list \"\(id)\"." }
/// }
/// ```
public protocol HTTPResponseError: Error {
    /// The answer's status.
    var status: HTTPStatus { get }
    /// What was wrong, for the person reading the answer (the problem's `detail`); nil for none.
    /// Never put internals here: they go to `logMessage`.
    var problemDetail: String? { get }
    /// The problem's `title`; the status's reason phrase by default.
    var problemTitle: String { get }
    /// A URI naming the problem type; "about:blank" (just the status) by default.
    var problemType: String { get }
    /// Extra header fields for the answer; none by default.
    var responseHeaders: HTTPHeaders { get }
    /// A line for the server's log about this error (never sent to the client); nil, the
    /// default, logs nothing. A 500 is always logged with the error itself.
    var logMessage: String? { get }
    /// Extension members of the problem (RFC 9457 section 3.2) as JSON object members, e.g.
    /// `"current":{…}`, written after `detail`; nil, the default, for none.
    var problemMembers: String? { get }
}

extension HTTPResponseError {
    public var problemTitle: String { status.reasonPhrase }
    public var problemType: String { "about:blank" }
    public var responseHeaders: HTTPHeaders { HTTPHeaders() }
    public var logMessage: String? { nil }
    public var problemMembers: String? { nil }

    /// The problem+json answer for this error: `type`, `title`, `status` and (when there is one)
    /// `detail`, with `responseHeaders`.
    public var response: Response {
        var json = "{\"type\":"
        ProblemJSON.appendString(problemType, to: &json)
        json += ",\"title\":"
        ProblemJSON.appendString(problemTitle, to: &json)
        json += ",\"status\":\(status.code)"
        if let problemDetail {
            json += ",\"detail\":"
            ProblemJSON.appendString(problemDetail, to: &json)
        }
        if let problemMembers { json += "," + problemMembers }
        json += "}\n"
        var headers = responseHeaders
        headers["Content-Type"] = "application/problem+json"
        return Response(status: status, headers: headers, body: Array(json.utf8))
    }
}
