/// One HTTP request as a handler sees it: method, decoded path, query, headers and the whole body.
///
/// The body has already been checked against the server's size cap. Path parameters are
/// filled in by the `Router` for the route that matched.
public struct Request: Sendable {
    public let method: HTTPMethod
    /// The path as sent, still percent-encoded, without the query ("/lists/a%2Fb").
    public let path: String
    /// The path split at "/" and then percent-decoded, so "%2F" stays inside its segment
    /// ("/lists/a%2Fb" gives ["lists", "a/b"]; "/" gives []).
    public let pathSegments: [String]
    /// The raw query string after "?", or "" when there is none.
    public let rawQuery: String
    /// Query items in order, decoded ("+" is a space).
    public let queryItems: [(name: String, value: String)]
    /// The header fields in order, repeats kept, each value without leading and trailing spaces
    /// and tabs (RFC 9110 section 5.5).
    public let headers: HTTPHeaders
    public let body: [UInt8]
    /// The pattern of the route that matched, set by the `Router`: the parameters are read from
    /// the path through it when asked for (no dictionary is built per request).
    var route: PathPattern?

    /// Parameters captured by the matched route pattern (`/lists/{id}` gives `parameters["id"]`).
    public var parameters: [String: String] { route?.match(pathSegments) ?? [:] }

    /// Parses a request target ("/path?query", or an absolute "http://host/path?query").
    /// - Throws: `HTTPError` 400 when the path is malformed (not starting with "/", a bad `%`
    ///   escape, bytes that are not UTF-8, or an encoded NUL) or the query is (a bad `%` escape
    ///   or bytes that are not UTF-8).
    public init(method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) throws {
        var target = Substring(target)
        if target.utf8.first != UInt8(ascii: "/") && (target.hasPrefix("http://") || target.hasPrefix("https://")) {
            let afterScheme = target[target.index(target.firstIndex(of: ":")!, offsetBy: 3)...]
            target =
                afterScheme.utf8.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") })
                .map { afterScheme[$0...] } ?? "/"
            if target.hasPrefix("?") { target = "/" + target }
        }
        let utf8 = target.utf8
        if let hash = utf8.firstIndex(of: UInt8(ascii: "#")) { target = target[..<hash] }
        let pathPart: Substring
        if let question = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            pathPart = target[..<question]
            rawQuery = String(target[target.utf8.index(after: question)...])
        } else {
            pathPart = target
            rawQuery = ""
        }
        guard pathPart.utf8.first == UInt8(ascii: "/") else {
            throw HTTPError(.badRequest, "The request target must start with \"/\".")
        }
        let segments = try Self.segments(of: pathPart)
        self.method = method
        self.path = String(pathPart)
        self.pathSegments = segments
        guard let queryItems = rawQuery.isEmpty ? [] : PercentDecoding.queryItems(Substring(rawQuery)) else {
            throw HTTPError(.badRequest, "The query string holds a malformed escape or bytes that are not UTF-8.")
        }
        self.queryItems = queryItems
        self.headers = headers.trimmingValues()
        self.body = body
    }

    /// The path split at "/" after its first byte, each segment percent-decoded ("/" gives []).
    /// - Throws: `HTTPError` 400 for a malformed escape, an encoded NUL or bytes that are not UTF-8.
    private static func segments(of path: Substring) throws -> [String] {
        let bytes = path.utf8
        guard bytes.count > 1 else { return [] }
        var segments: [String] = []
        segments.reserveCapacity(4)
        var start = bytes.index(after: bytes.startIndex)
        var index = start
        while true {
            if index == bytes.endIndex || bytes[index] == UInt8(ascii: "/") {
                guard let segment = PercentDecoding.decodeSegment(path[start..<index]) else {
                    throw HTTPError(.badRequest, "The request path holds a malformed escape, an encoded NUL or bytes that are not UTF-8.")
                }
                segments.append(segment)
                if index == bytes.endIndex { return segments }
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
    }

    /// The first value of the named query item, or nil.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The named path parameter.
    /// - Throws: `HTTPError` 500 if the matched route has no such parameter (a programming error).
    public func parameter(_ name: String) throws -> String {
        guard let value = route?.value(of: name, in: pathSegments) else {
            throw HTTPError(.internalServerError, "Route parameter \(name) is missing.")
        }
        return value
    }
}
