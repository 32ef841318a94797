/// Cross-origin access for browser code from the configured origins (`--cors-origin`).
///
/// A request whose `Origin` is one of `origins` gets `Access-Control-Allow-Origin: <origin>` and
/// `Access-Control-Expose-Headers` on its answer; a preflight (`OPTIONS` with
/// `Access-Control-Request-Method`) from such an origin is answered 204 allowing every method
/// and `allowedHeaders`, whatever the path. Other origins get no CORS header (their preflight
/// falls through to the router: 405). While any origin is configured every answer carries
/// `Vary: Origin`, so a shared cache never hands one origin's answer to another.
/// Credentials (cookies) are not involved: writes carry their token in `Authorization`.
public struct CORSPolicy: Sendable {
    /// Exact origins as browsers send them (`https://app.example.com`, no trailing slash).
    public let origins: Set<String>

    public static let allowedMethods = "GET, HEAD, PUT, POST, PATCH, DELETE, OPTIONS"
    public static let allowedHeaders = "Authorization, Content-Type, If-Match, If-None-Match, Last-Event-ID"
    public static let exposedHeaders = "ETag, Link, List-Cursor, Location"
    /// How long a browser may reuse a preflight's answer, in seconds.
    public static let maxAge = "600"

    public init(origins: some Sequence<String>) {
        self.origins = Set(origins)
    }

    public var isEnabled: Bool { !origins.isEmpty }

    /// The request's `Origin` when it is allowed, else nil.
    public func allowedOrigin(_ headers: HTTPHeaders) -> String? {
        guard isEnabled, let origin = headers["Origin"], origins.contains(origin) else { return nil }
        return origin
    }

    /// The 204 answer to a preflight from an allowed origin; nil for any other request.
    public func preflight(method: HTTPMethod, headers: HTTPHeaders) -> Response? {
        guard method == .options, headers["Access-Control-Request-Method"] != nil,
            let origin = allowedOrigin(headers)
        else { return nil }
        return Response(
            status: .noContent,
            headers: [
                "Access-Control-Allow-Origin": origin,
                "Access-Control-Allow-Methods": Self.allowedMethods,
                "Access-Control-Allow-Headers": Self.allowedHeaders,
                "Access-Control-Max-Age": Self.maxAge,
                "Vary": "Origin",
            ])
    }

    /// Adds the answer's CORS headers for a request from `origin` (nil: only `Vary: Origin`).
    public func apply(origin: String?, to headers: inout HTTPHeaders) {
        guard isEnabled else { return }
        headers.addVary("Origin")
        guard let origin else { return }
        headers["Access-Control-Allow-Origin"] = origin
        headers["Access-Control-Expose-Headers"] = Self.exposedHeaders
    }
}

extension HTTPHeaders {
    /// Adds `name` to the `Vary` field unless it is already listed (or `Vary` is `*`).
    public mutating func addVary(_ name: String) {
        guard let current = self["Vary"], !current.isEmpty else {
            self["Vary"] = name
            return
        }
        let listed = current.split(separator: ",").map { $0.trimmingOWS().lowercased() }
        guard !listed.contains("*"), !listed.contains(name.lowercased()) else { return }
        self["Vary"] = current + ", " + name
    }
}
