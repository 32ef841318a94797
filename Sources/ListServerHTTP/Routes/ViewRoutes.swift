import HTMLRenderer
import HTTPServer
import ListModel
import ListService

/// Reads of a view (API.md section 9): the JSON document, the HTML page and `…/rows` of a list
/// seen through `sort`/`sort_desc`, `q` and filters. Views are built from the cached snapshot once
/// per version and query (`SnapshotCache.view`); cursors are `ViewCursor`s bound to the query.
package enum ViewRoutes {
    /// `GET /lists/{id}?VIEW` as JSON: the view's document (matching rows in view order).
    package static func document(
        _ request: Request, _ snapshot: ListSnapshot, _ query: ListQuery,
        _ context: ServerContext
    ) throws -> Response {
        _ = try ViewPageQuery(request, query)
        let etag = Conditional.etag(snapshot.version, variant: ViewRequest.etagVariant(query))
        let cacheControl = context.authorization.cacheControl(request)
        return try ViewRequest.answer(snapshot, query, etag: etag, { try ViewRequest.view(snapshot, query) }) { view in
            var response = Response.json(view.document.json.serialized())
            response.headers["ETag"] = etag
            response.headers["Vary"] = "Accept"
            response.headers["Cache-Control"] = cacheControl
            return response
        }
    }

    /// `GET /lists/{id}?VIEW` as HTML: a page of the view (the first, or the one after `after`).
    package static func page(
        _ request: Request, _ snapshot: ListSnapshot, _ query: ListQuery, _ context: ServerContext,
        viewKey: String?
    ) throws -> Response {
        let pageQuery = try ViewPageQuery(request, query)
        // As on the list's page: a writer may edit a view's rows (not move them), and the page
        // answered to an edit link has a tag of its own.
        let editable = context.authorization.mayEditPage(request, list: snapshot.id)
        let editLink = editable && request.query("key") != nil ? "-edit" : ""
        let etag = Conditional.etag(
            snapshot.version, variant: "html-" + ViewRequest.etagVariant(query) + pageQuery.variant + editLink)
        let cacheControl = context.authorization.cacheControl(request)
        let kept = try ViewRequest.keptPage(snapshot, query, pageQuery)
        let find = { @Sendable in try ViewRequest.page(snapshot, query, pageQuery) }
        return try ViewRequest.answer(snapshot, query, etag: etag, found: kept, find) { shown in
            let nextHref = shown.page.next.map {
                "/lists/\(snapshot.id)?" + pageQuery.nextQuery(after: $0) + PageRoutes.keyParameter(viewKey)
            }
            let (document, listPage) = pageDocument(snapshot.document, query, shown)
            let pageContext = PageContext(
                listID: snapshot.id, version: snapshot.version, nextHref: nextHref,
                cursor: shown.lastCursor?.encoded, assetsPath: context.assetsPath,
                linksIndex: viewKey == nil, view: ViewControls(query: query, viewKey: viewKey), editable: editable)
            var response = Response.html(
                context.renderer.page(document, page: listPage, context: pageContext, rowVersions: snapshot.list.version(ofRow:)))
            response.headers["ETag"] = etag
            PageRoutes.pageHeaders(&response, nextHref: nextHref, cacheControl: cacheControl)
            SecurityHeaders.apply(to: &response)
            return response
        }
    }

    /// `GET /lists/{id}/rows?VIEW`: a page of the view as JSON `{"sections", "next"}` or, for
    /// `Accept: text/html`, the `<tbody>` fragments to append.
    package static func rows(
        _ request: Request, _ snapshot: ListSnapshot, _ query: ListQuery, _ context: ServerContext,
        viewKey: String?
    ) throws -> Response {
        let pageQuery = try ViewPageQuery(request, query)
        let html = Negotiation.prefersHTML(request)
        let variant = (html ? "rows-html-" : "rows-") + ViewRequest.etagVariant(query) + pageQuery.variant
        let etag = Conditional.etag(snapshot.version, variant: variant)
        let cacheControl = context.authorization.cacheControl(request)
        let id = snapshot.id
        let kept = try ViewRequest.keptPage(snapshot, query, pageQuery)
        let find = { @Sendable in try ViewRequest.page(snapshot, query, pageQuery) }
        return try ViewRequest.answer(snapshot, query, etag: etag, found: kept, find) { shown in
            let page = shown.page
            var response: Response
            if html {
                let nextHref = page.next.map { "/lists/\(id)?" + pageQuery.nextQuery(after: $0) + PageRoutes.keyParameter(viewKey) }
                let (document, listPage) = pageDocument(snapshot.document, query, shown)
                response = .html(
                    context.renderer.fragment(document, page: listPage, nextHref: nextHref, rowVersions: snapshot.list.version(ofRow:)))
                SecurityHeaders.apply(to: &response)
            } else {
                let columns = snapshot.document.columns
                let body: JSONValue = .object(
                    JSONObject([
                        ("sections", .array(snapshot.document.sections(in: page).map { $0.json(columns: columns) })),
                        ("next", page.next.map { .string($0.encoded) } ?? .null),
                    ]))
                response = .json(body.serialized())
            }
            response.headers["ETag"] = etag
            if let last = shown.lastCursor { response.headers["List-Cursor"] = last.encoded }
            PageRoutes.pageHeaders(
                &response,
                nextHref: page.next.map {
                    "/lists/\(id)/rows?" + pageQuery.nextQuery(after: $0) + PageRoutes.keyParameter(viewKey)
                }, cacheControl: cacheControl)
            return response
        }
    }

    /// A document holding just `shown`'s rows, and the `ListPage` that shows it whole: each
    /// part's section of `list` with the part's rows in view order, its footer only where the part
    /// ends its section in the view. With `q` or filters and no match, the page says so.
    static func pageDocument(_ list: ListDocument, _ query: ListQuery, _ shown: ShownViewPage) -> (ListDocument, ListPage) {
        var document = list
        document.sections = list.sections(in: shown.page)
        var parts: [ListPage.Part] = []
        for (index, part) in shown.page.parts.enumerated() {
            if !shown.endsSection[index] { document.sections[index].footer = nil }
            parts.append(ListPage.Part(sectionIndex: index, rows: 0..<part.rows.count, continuesSection: part.continuesSection))
        }
        if query.selectsRows, shown.viewIsEmpty, document.emptyText == nil {
            document.emptyText = "No rows match " + describe(query) + "."
        }
        return (document, ListPage(parts: parts, next: nil))
    }

    /// The query in words, for the page that finds nothing: `"milk"`, and filters as written.
    static func describe(_ query: ListQuery) -> String {
        var parts: [String] = []
        if let search = query.search { parts.append("\u{201C}\(search)\u{201D}") }
        for filter in query.filters {
            parts.append("\(filter.column) \(filter.op.rawValue)" + (filter.value.map { " \($0)" } ?? ""))
        }
        return parts.joined(separator: " and ")
    }
}

/// The `limit` and `after` of a page of a view: `after` is a `ViewCursor` of this query.
package struct ViewPageQuery {
    package let limit: Int
    package let after: ViewCursor?
    let query: ListQuery

    /// - Throws: 400 for a limit out of range, a malformed cursor or one of another view.
    package init(_ request: Request, _ query: ListQuery) throws {
        limit = try PageQuery.limit(request, default: PageQuery.defaultLimit, max: PageQuery.maxLimit)
        after = try request.query("after").map { text in
            do {
                let cursor = try ViewCursor(decoding: text)
                guard cursor.fingerprint == query.fingerprint else { throw CursorError.otherView }
                return cursor
            } catch let error as CursorError {
                throw HTTPError(.badRequest, "after: \(error.description).")
            }
        }
        self.query = query
    }

    /// What tells this page's answers apart from the view's other pages in its `ETag`: the
    /// cursor's hash and the limit ("" for the first page at the default limit).
    package var variant: String {
        var out = ""
        if let after { out += "-a" + String(fnv(after.encoded), radix: 16) }
        if limit != PageQuery.defaultLimit { out += "-l\(limit)" }
        return out
    }

    private func fnv(_ text: String) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }

    /// The query string of the page after `cursor`: the view's parameters, `after`, this limit.
    package func nextQuery(after cursor: ViewCursor) -> String {
        ViewRequest.parameters(query, "after=\(cursor.encoded)", limit == PageQuery.defaultLimit ? "" : "limit=\(limit)")
    }
}
