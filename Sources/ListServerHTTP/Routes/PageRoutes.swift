import HTMLRenderer
import HTTPServer
import ListModel
import ListService

/// Pages of a list: the HTML page of `GET /lists/{id}` and the tail-loading endpoint
/// `GET /lists/{id}/rows?after=CURSOR&limit=N` (API.md sections 3 and 4).
package enum PageRoutes {
    package static func register(on router: inout Router, context: ServerContext) {
        router.get("/lists/{id}/rows") { request in try rows(request, context) }
    }

    /// The HTML page: the first page, or with `after` the page after that cursor (the no-JS
    /// "Load more" path). A page opened with a view link carries its `viewKey` in that link.
    package static func htmlPage(
        _ request: Request, _ snapshot: ListSnapshot, _ context: ServerContext,
        viewKey: String? = nil
    ) throws -> Response {
        let query = try PageQuery(request)
        // The first page of a version is what every visitor gets: its answer is made once and
        // kept with the snapshot (a `PreparedResponse`, which also keeps its gzip and CORS forms
        // and their 304s), so such a request computes nothing more. A page fetched with a key
        // links with it and says `private`: made apart.
        if query.after == nil && viewKey == nil && request.query("key") == nil {
            return Response(
                prepared: try snapshot.cache.firstPage(limit: query.limit) {
                    try PreparedResponse(
                        render(request, snapshot, context, query: query, viewKey: nil, editing: editing(request, snapshot, context)))
                })
        }
        // Rendered per request: a client that holds it gets its 304 without a rendering.
        let pageEditing = editing(request, snapshot, context)
        return .validated(etag: pageEditing.etag) {
            render(request, snapshot, context, query: query, viewKey: viewKey, editing: pageEditing)
        }
    }

    /// Whether the page answered to `request` offers editing, and its `ETag`: a page opened with
    /// an edit link differs from the same page without it (or once the link has expired): its
    /// own tag, so no revalidation hands one for the other.
    private static func editing(
        _ request: Request, _ snapshot: ListSnapshot, _ context: ServerContext
    ) -> (editable: Bool, etag: String) {
        let editable = context.authorization.mayEditPage(request, list: snapshot.id)
        let editLink = editable && request.query("key") != nil
        return (editable, Conditional.etag(snapshot.version, variant: editLink ? "html-edit" : "html"))
    }

    /// The HTML page of `query` as answered to `request` (see `htmlPage`).
    private static func render(
        _ request: Request, _ snapshot: ListSnapshot, _ context: ServerContext, query: PageQuery, viewKey: String?,
        editing: (editable: Bool, etag: String)
    ) -> Response {
        let page = snapshot.list.page(after: query.after, limit: query.limit)
        let nextHref = page.next.map { "/lists/\(snapshot.id)?\(query.nextQuery(after: $0))" + keyParameter(viewKey) }
        let pageContext = PageContext(
            listID: snapshot.id, version: snapshot.version, nextHref: nextHref,
            cursor: snapshot.list.lastCursor(of: page)?.encoded, assetsPath: context.assetsPath,
            linksIndex: viewKey == nil, view: ViewControls(query: nil, viewKey: viewKey), editable: editing.editable)
        var response = Response.html(
            context.renderer.page(snapshot.document, page: page, context: pageContext, rowVersions: snapshot.list.version(ofRow:)))
        response.headers["ETag"] = editing.etag
        pageHeaders(&response, nextHref: nextHref, cacheControl: context.authorization.cacheControl(request))
        SecurityHeaders.apply(to: &response)
        return response
    }

    /// `GET /lists/{id}/rows`: JSON `{"sections", "next"}` or, for `Accept: text/html`, the
    /// `<tbody>` fragments to append. `List-Cursor` names the cursor after the page's last row
    /// (also on the last page, where `next` is null), so a client can subscribe with exactly
    /// the rows it holds (`until=`).
    package static func rows(_ request: Request, _ context: ServerContext) throws -> Response {
        let id = try ListID.validated(request.parameter("id"))
        let viewKey = try context.authorization.requireRead(request, list: id)
        let snapshot = try context.registry.existing(id: id)
        if let view = try ViewRequest.query(request, columns: snapshot.document.columns) {
            return try ViewRoutes.rows(request, snapshot, view, context, viewKey: viewKey)
        }
        let query = try PageQuery(request)
        let html = Negotiation.prefersHTML(request)
        let etag = Conditional.etag(snapshot.version, variant: html ? "rows-html" : "rows")
        let cacheControl = context.authorization.cacheControl(request)
        // Rendered per request: a client that holds it gets its 304 without a rendering.
        return .validated(etag: etag) {
            let page = snapshot.list.page(after: query.after, limit: query.limit)
            var response: Response
            if html {
                let nextHref = page.next.map { "/lists/\(id)?\(query.nextQuery(after: $0))" + keyParameter(viewKey) }
                response = .html(
                    context.renderer.fragment(snapshot.document, page: page, nextHref: nextHref, rowVersions: snapshot.list.version(ofRow:))
                )
                SecurityHeaders.apply(to: &response)
            } else {
                let columns = snapshot.document.columns
                let body: JSONValue = .object(
                    JSONObject([
                        ("sections", .array(snapshot.document.sections(in: page.parts).map { $0.json(columns: columns) })),
                        ("next", page.next.map { .string($0.encoded) } ?? .null),
                    ]))
                response = .json(body.serialized())
            }
            response.headers["ETag"] = etag
            if let last = snapshot.list.lastCursor(of: page) { response.headers["List-Cursor"] = last.encoded }
            pageHeaders(
                &response, nextHref: page.next.map { "/lists/\(id)/rows?\(query.nextQuery(after: $0))" + keyParameter(viewKey) },
                cacheControl: cacheControl)
            return response
        }
    }

    /// `&key=…` for the links of an answer to a view link (a checked key: URL-safe as it is).
    package static func keyParameter(_ viewKey: String?) -> String {
        viewKey.map { "&key=\($0)" } ?? ""
    }

    /// `Link: rel="next"`, `Vary` and caching headers shared by every page answer.
    package static func pageHeaders(_ response: inout Response, nextHref: String?, cacheControl: String) {
        if let nextHref { response.headers["Link"] = "<\(nextHref)>; rel=\"next\"" }
        response.headers["Vary"] = "Accept"
        response.headers["Cache-Control"] = cacheControl
    }
}

/// The headers every HTML answer carries: no inline script, no MIME sniffing.
package enum SecurityHeaders {
    package static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; "
        + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    package static func apply(to response: inout Response) {
        response.headers["Content-Security-Policy"] = contentSecurityPolicy
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
    }
}
