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
    /// lists the caller may read.
    package static func index(_ request: Request, _ context: ServerContext) throws -> Response {
        let readable = try context.authorization.readableLists(request)
        let lists = context.registry.all().filter { readable($0.id) }
        if Negotiation.prefersHTML(request) { return IndexRoutes.page(lists) }
        let entries: [JSONValue] = lists.map { snapshot in
            [
                "id": .string(snapshot.id),
                "title": .string(snapshot.document.title),
                "rows": .number(Double(snapshot.list.rowCount)),
                "version": .number(Double(snapshot.version)),
            ]
        }
        var response = Response.json(JSONValue.object(JSONObject([("lists", .array(entries))])).serialized())
        response.headers["Vary"] = "Accept"
        response.headers["Cache-Control"] = "no-cache"
        return response
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
            return try CSVExport.response(snapshot, query: ViewRequest.query(request, columns: snapshot.document.columns))
        }
        if let query = try ViewRequest.query(request, columns: snapshot.document.columns) {
            if Negotiation.explicitlyWantsJSON(request) { return try ViewRoutes.document(request, snapshot, query) }
            return try ViewRoutes.page(request, snapshot, query, context, viewKey: viewKey)
        }
        if Negotiation.explicitlyWantsJSON(request) {
            _ = try PageQuery(request)  // the page's limit and after are checked for JSON too (openapi.json says so)
            let etag = Conditional.etag(snapshot.version)
            if Conditional.isFresh(request, etag: etag) { return Conditional.notModified(etag: etag) }
            let answer = { @Sendable in
                try snapshot.cache.documentAnswer {
                    var response = Response.json(snapshot.documentJSON)
                    response.headers["ETag"] = etag
                    response.headers["Vary"] = "Accept"
                    response.headers["Cache-Control"] = "no-cache"
                    return try PreparedResponse(response)
                }
            }
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
