import HTMLRenderer
import HTTPServer
import ListModel
import ListService
import ServerSupport

/// `/lists` and `/lists/{id}`: the index, and whole-document create, read, patch and delete.
package enum ListRoutes {
    package static func register(on router: inout Router, context: ServerContext) {
        router.get("/lists") { request in try index(request, context) }
        router.put("/lists/{id}") { request in try put(request, context) }
        router.get("/lists/{id}") { request in try get(request, context) }
        router.patch("/lists/{id}") { request in try patch(request, context) }
        router.delete("/lists/{id}") { request in try delete(request, context) }
    }

    /// `GET /lists`: JSON by default, the HTML index for browsers; with `--private`, only the
    /// lists the caller may read; paged past 500 lists (`IndexPage`).
    package static func index(_ request: Request, _ context: ServerContext) throws -> Response {
        let page = try IndexPage(request, context)
        if Negotiation.prefersHTML(request) { return IndexRoutes.html(page, request, context) }
        let nextHref = page.nextHref(path: request.path)
        let cacheControl = context.authorization.cacheControl(request)
        return .validated(etag: page.etag(variant: nil)) {
            let entries: [JSONValue] = page.lists.map(IndexFeed.summary)
            let body = JSONValue.object(JSONObject([("lists", .array(entries)), ("next", page.next.map { .string($0) } ?? .null)]))
            var response = Response.json(body.serialized())
            page.addHeaders(&response, variant: nil, nextHref: nextHref, cacheControl: cacheControl)
            return response
        }
    }

    /// `PUT /lists/{id}`: create (201) or replace (200) the whole document.
    package static func put(_ request: Request, _ context: ServerContext) throws -> Response {
        let write = try WriteRequest(request, context.authorization, body: "application/json")
        let (id, precondition) = (write.id, write.precondition)
        let document = try ListDocument(json: JSONValue(parsing: request.body), limits: context.documentLimits)
        var created = false
        let snapshot = try context.registry.write(id: id, precondition: precondition, mayCreate: true) { old in
            created = old == nil
            return document
        }
        return WriteAnswer.response(snapshot, status: created ? .created : .ok)
    }

    /// `GET /lists/{id}`: the document for `Accept: application/json`, else the HTML page.
    package static func get(_ request: Request, _ context: ServerContext) throws -> Response {
        let id = try ListID.validated(request.parameter("id"))
        let viewKey = try context.authorization.requireRead(request, list: id)
        let snapshot = try context.registry.existing(id: id)
        if try CSVExport.isAsked(request) {
            return try CSVExport.response(
                snapshot, query: ViewRequest.query(request, columns: snapshot.document.columns),
                cacheControl: context.authorization.cacheControl(request))
        }
        if let query = try ViewRequest.query(request, columns: snapshot.document.columns) {
            if Negotiation.explicitlyWantsJSON(request) { return try ViewRoutes.document(request, snapshot, query, context) }
            return try ViewRoutes.page(request, snapshot, query, context, viewKey: viewKey)
        }
        if Negotiation.explicitlyWantsJSON(request) {
            _ = try PageQuery(request)  // the page's limit and after are checked for JSON too (openapi.json says so)
            let etag = Conditional.etag(snapshot.version)
            let cacheControl = context.authorization.cacheControl(request)
            let make = { @Sendable in
                // The canonical bytes as streamed and stored, shared: no line feed appended.
                var response = Response.json(snapshot.documentJSON, terminated: false)
                response.headers["ETag"] = etag
                response.headers["Vary"] = "Accept"
                response.headers["Cache-Control"] = cacheControl
                return response
            }
            // The kept answer is everyone's; one fetched with a key on a public server says
            // `private` (Authorization.cacheControl), so it is made apart.
            if request.query("key") != nil && !context.authorization.policy.isPrivate { return make() }
            let answer = { @Sendable in try snapshot.cache.documentAnswer { try PreparedResponse(make()) } }
            // A large document's first answer (serializing and, for gzip, compressing megabytes)
            // is made off the connection's thread, which meanwhile serves its other connections.
            if snapshot.list.rowCount >= ServerDefaults.offThreadRows, !snapshot.cache.hasDocumentAnswer {
                return .offThread {
                    do {
                        return Response(prepared: try answer())
                    } catch {
                        Log.error("GET /lists/\(id): cannot prepare the document's answer: \(error)")
                        return HTTPError(.internalServerError).response
                    }
                }
            }
            return Response(prepared: try answer())
        }
        return try PageRoutes.htmlPage(request, snapshot, context, viewKey: viewKey)
    }

    /// `PATCH /lists/{id}`: an RFC 6902 patch applied atomically.
    ///
    /// Applied to the indexed list (`IndexedList.applying`): the cost is that of the rows the
    /// patch touches, and the store writes only those; errors are those of the patch applied
    /// to the whole document.
    package static func patch(_ request: Request, _ context: ServerContext) throws -> Response {
        let write = try WriteRequest(request, context.authorization, body: "application/json-patch+json")
        let (id, precondition) = (write.id, write.precondition)
        let patch = try JSONPatch(parsing: request.body)
        let snapshot = try context.registry.writeRows(id: id, precondition: precondition) { list in
            try list.applying(patch, limits: context.documentLimits)
        }
        return WriteAnswer.response(snapshot)
    }

    /// `DELETE /lists/{id}`: 204; subscribers get `event: deleted`.
    package static func delete(_ request: Request, _ context: ServerContext) throws -> Response {
        let write = try WriteRequest(request, context.authorization, body: nil)
        let (id, precondition) = (write.id, write.precondition)
        try context.registry.delete(id: id, precondition: precondition)
        return Response(status: .noContent)
    }
}
