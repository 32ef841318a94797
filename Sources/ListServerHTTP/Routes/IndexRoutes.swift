import HTMLRenderer
import HTTPServer
import ListModel
import ListService
import ServerSupport

/// `GET /`: the HTML index of all lists (with `--private`, of those the caller may read), `GET
/// /events` its live index, and the paging and validators they share with `GET /lists` (API.md
/// sections 2 and 5).
package enum IndexRoutes {
    package static func register(on router: inout Router, context: ServerContext) {
        router.get("/") { request in
            let page = try IndexPage(request, context)
            return html(page, request, context)
        }
        router.get("/events") { request in try live(request, context) }
    }

    /// `GET /events`: the live index, a `text/event-stream` of the page `after` and `limit`
    /// name (API.md section 5, "The live index").
    /// - Throws: as `IndexPage`; 503 when the server holds `maxSubscribers` streams.
    package static func live(_ request: Request, _ context: ServerContext) throws -> Response {
        let (limit, after) = try IndexPage.range(request)
        let readable = try context.authorization.readableLists(request)
        let headers = try EventRoutes.streamHeaders(request, context)
        let subscribe = LiveHub.IndexRequest(after: after, limit: limit, readable: readable)
        let grant = try context.authorization.indexGrant(request)
        return .stream(headers: headers, heartbeat: ServerSentEvent.heartbeat) { stream in
            if let grant { context.streamGrants.track(stream, grant) }
            context.hub.attachIndex(subscribe, to: stream)
        }
    }

    /// The index page listing one page of lists with links (and `rel="next"` while more remain).
    /// Rendered only when the client does not hold it already (`Response.validated`).
    package static func html(_ page: IndexPage, _ request: Request, _ context: ServerContext) -> Response {
        let nextHref = page.nextHref(path: request.path)
        let cacheControl = context.authorization.cacheControl(request)
        return .validated(etag: page.etag(variant: "html")) {
            let summaries = page.lists.map { snapshot in
                ListSummary(id: snapshot.id, title: snapshot.document.title, rows: snapshot.list.rowCount, version: snapshot.version)
            }
            let html = HTMLRenderer().indexPage(
                summaries, assetsPath: context.assetsPath, nextHref: nextHref, liveHref: page.liveHref)
            var response = Response.html(html)
            page.addHeaders(&response, variant: "html", nextHref: nextHref, cacheControl: cacheControl)
            SecurityHeaders.apply(to: &response)
            return response
        }
    }
}

/// One page of the index (`GET /`, `GET /lists`): lists in id order after `after` (a list id,
/// the last of the previous page), at most `limit` (1…500, default 500) of them.
package struct IndexPage: Sendable {
    package static let defaultLimit = 500
    package static let maxLimit = 500

    package let limit: Int
    package let after: String?
    /// The lists of this page.
    package let lists: [ListSnapshot]
    /// The id to pass as `after` for the next page; nil on the last.
    package let next: String?

    /// The page the request asks for, of the lists it may read.
    /// - Throws: 400 for a `limit` out of range or an `after` that is not a list id; 401 under
    ///   `--private` without a known token.
    package init(_ request: Request, _ context: ServerContext) throws {
        (limit, after) = try Self.range(request)
        let readable = try context.authorization.readableLists(request)
        let after = self.after
        var page: [ListSnapshot] = []
        var more = false
        for snapshot in context.registry.all() where readable(snapshot.id) && (after.map { snapshot.id > $0 } ?? true) {
            if page.count == limit {
                more = true
                break
            }
            page.append(snapshot)
        }
        lists = page
        next = more ? page.last?.id : nil
    }

    /// The `limit` and `after` a request asks for.
    /// - Throws: 400 for a `limit` out of range or an `after` that is not a list id.
    package static func range(_ request: Request) throws -> (limit: Int, after: String?) {
        let limit = try PageQuery.limit(request, default: Self.defaultLimit, max: Self.maxLimit)
        guard let after = request.query("after") else { return (limit, nil) }
        guard ListID.isValid(after) else {
            throw HTTPError(.badRequest, "after must be a list id (the last of the previous page). " + ListID.rule)
        }
        return (limit, after)
    }

    /// The link to the next page at `path` (the request's), keeping a `limit` that is not the default.
    package func nextHref(path: String) -> String? {
        next.map { "\(path)?after=\($0)" + (limit == Self.defaultLimit ? "" : "&limit=\(limit)") }
    }

    /// The live index of this page (`GET /events`, with its `after` and `limit`).
    package var liveHref: String {
        var query: [String] = after.map { ["after=\($0)"] } ?? []
        if limit != Self.defaultLimit { query.append("limit=\(limit)") }
        return query.isEmpty ? "/events" : "/events?" + query.joined(separator: "&")
    }

    /// The page's strong validator: its lists and their versions (a write to any of them, a list
    /// created or deleted in its range, changes it), and whether another page follows.
    /// `variant` names the representation (`"html"` or nil for JSON).
    package func etag(variant: String?) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, 64 bits
        func mix(_ text: String) {
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            hash = (hash ^ 0xff) &* 0x100_0000_01b3
        }
        for snapshot in lists {
            mix(snapshot.id)
            mix(String(snapshot.version))
        }
        mix(next ?? "")
        let hex = String(hash, radix: 16)
        return "\"lists-" + String(repeating: "0", count: 16 - hex.count) + hex + (variant.map { "-\($0)" } ?? "") + "\""
    }

    /// `ETag`, `Link: rel="next"`, `Vary` and `Cache-Control` of an index answer.
    package func addHeaders(_ response: inout Response, variant: String?, nextHref: String?, cacheControl: String) {
        response.headers["ETag"] = etag(variant: variant)
        if let nextHref { response.headers["Link"] = "<\(nextHref)>; rel=\"next\"" }
        response.headers["Vary"] = "Accept"
        response.headers["Cache-Control"] = cacheControl
    }
}
