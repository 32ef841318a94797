import ServerSupport

/// A request handler: returns a response or throws (an `HTTPResponseError`, such as `HTTPError`,
/// for answers such as 404 or 422).
public typealias Handler = @Sendable (Request) throws -> Response

/// Maps method and path to handlers; answers 404 for unknown paths and 405 (with `Allow`)
/// for a known path with another method. `GET` routes also answer `HEAD`, and every known path
/// answers `OPTIONS` with 204 and `Allow` (which always lists `OPTIONS`).
///
/// ```swift
/// var router = Router()
/// router.get("/lists/{id}") { request in
///     let id = try request.parameter("id")
///     return .text("list \(id)")
/// }
/// ```
/// Routes are tried in the order they were added; the first match wins.
public struct Router: Sendable {
    /// One route; a class, so that trying it costs no copy of its fields.
    final class Route: Sendable {
        let method: HTTPMethod
        let pattern: PathPattern
        let handler: Handler

        init(method: HTTPMethod, pattern: PathPattern, handler: @escaping Handler) {
            self.method = method
            self.pattern = pattern
            self.handler = handler
        }

        /// Whether this route answers `method` (a `GET` route answers `HEAD` too).
        func answers(_ method: HTTPMethod) -> Bool { self.method == method || (self.method == .get && method == .head) }
    }

    private var routes: [Route] = []

    /// Another form of an error's answer for requests that want one (a browser navigating gets
    /// an HTML page instead of problem+json); nil, or a nil answer, keeps the problem+json.
    /// It gets the request and the error's problem+json answer, whose status and headers it keeps.
    public var errorPage: (@Sendable (Request, any HTTPResponseError) -> Response?)?

    public init() {}

    /// Adds a route for `method` and `pattern` (see the type's documentation for patterns).
    public mutating func on(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        routes.append(Route(method: method, pattern: PathPattern(pattern), handler: handler))
    }

    public mutating func get(_ pattern: String, _ handler: @escaping Handler) { on(.get, pattern, handler) }
    public mutating func put(_ pattern: String, _ handler: @escaping Handler) { on(.put, pattern, handler) }
    public mutating func post(_ pattern: String, _ handler: @escaping Handler) { on(.post, pattern, handler) }
    public mutating func patch(_ pattern: String, _ handler: @escaping Handler) { on(.patch, pattern, handler) }
    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) { on(.delete, pattern, handler) }

    /// Finds the route for a request and runs it; never throws.
    ///
    /// An `HTTPResponseError` becomes its problem+json answer (its `logMessage`, if any, goes to
    /// the log as a warning); any other error becomes a 500 that leaks nothing. `onInternalError`
    /// receives every error answered 500, to log.
    public func respond(to request: Request, onInternalError: (Request, any Error) -> Void = { _, _ in }) -> Response {
        do {
            return try dispatch(request)
        } catch let error as any HTTPResponseError {
            if error.status == .internalServerError {
                onInternalError(request, error)
            } else if let message = error.logMessage {
                Log.warning(message)
            }
            return errorPage?(request, error) ?? error.response
        } catch {
            onInternalError(request, error)
            return HTTPError.internalFailure.response
        }
    }

    private func dispatch(_ request: Request) throws -> Response {
        for route in routes where route.answers(request.method) && route.pattern.matches(request.pathSegments) {
            var request = request
            request.route = route.pattern
            return try route.handler(request)
        }
        var allowed: [HTTPMethod] = []
        for route in routes where route.pattern.matches(request.pathSegments) {
            allowed.append(route.method)
            if route.method == .get { allowed.append(.head) }
        }
        guard allowed.isEmpty else {
            // Every known path answers OPTIONS (RFC 9110 section 9.3.7): 204 with `Allow`.
            allowed.append(.options)
            var unique: [String] = []
            for method in allowed where !unique.contains(method.rawValue) { unique.append(method.rawValue) }
            let allow = unique.joined(separator: ", ")
            if request.method == .options { return Response(status: .noContent, headers: ["Allow": allow]) }
            throw HTTPError(
                .methodNotAllowed, "\(request.method) is not allowed on \(request.path); use \(allow).",
                headers: ["Allow": allow])
        }
        throw HTTPError(.notFound, "Nothing is served at \(request.path).")
    }
}
