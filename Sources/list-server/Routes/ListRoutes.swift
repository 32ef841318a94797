import HTMLRenderer
import HTTPServer
import ListModel

/// `/lists` and `/lists/{id}`: the index, and whole-document create, read, patch and delete.
enum ListRoutes {
    static func register(on router: inout Router, context: ServerContext) {
        router.get("/lists") { request in try index(request, context) }
        router.put("/lists/{id}") { request in try put(request, context) }
        router.get("/lists/{id}") { request in try get(request, context) }
        router.patch("/lists/{id}") { request in try patch(request, context) }
        router.delete("/lists/{id}") { request in try delete(request, context) }
    }

    /// `GET /lists`: JSON by default, the HTML index for browsers; with `--private`, only the
    /// lists the caller may read.
    static func index(_ request: Request, _ context: ServerContext) throws -> Response {
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
    static func put(_ request: Request, _ context: ServerContext) throws -> Response {
        let write = try WriteRequest(request, context, body: "application/json")
        let (id, precondition) = (write.id, write.precondition)
        return try APIError.mapping {
            let document = try ListDocument(json: JSONValue(parsing: request.body), limits: context.documentLimits)
            var created = false
            let snapshot = try context.registry.write(id: id, precondition: precondition, mayCreate: true) { old in
                created = old == nil
                return document
            }
            return WriteAnswer.response(snapshot, status: created ? .created : .ok)
        }
    }

    /// `GET /lists/{id}`: the document for `Accept: application/json`, else the HTML page.
    static func get(_ request: Request, _ context: ServerContext) throws -> Response {
        let id = try ListID.validated(request.parameter("id"))
        let viewKey = try context.authorization.requireRead(request, list: id)
        guard let snapshot = context.registry.snapshot(id: id) else {
            throw HTTPError(.notFound, "There is no list \"\(id)\".")
        }
        if Negotiation.explicitlyWantsJSON(request) {
            let etag = Conditional.etag(snapshot.version)
            if Conditional.isFresh(request, etag: etag) { return Conditional.notModified(etag: etag) }
            return Response(prepared: try snapshot.cache.documentAnswer {
                var response = Response.json(snapshot.documentJSON)
                response.headers["ETag"] = etag
                response.headers["Vary"] = "Accept"
                response.headers["Cache-Control"] = "no-cache"
                return response
            })
        }
        return try PageRoutes.htmlPage(request, snapshot, context, viewKey: viewKey)
    }

    /// `PATCH /lists/{id}`: an RFC 6902 patch applied atomically.
    ///
    /// A patch that stays inside one row (`/sections/S/rows/R/…`) is applied to that row alone,
    /// at the cost of a row write; anything else (and any patch that fails that way, to get its
    /// error right) is applied to the whole document and diffed.
    static func patch(_ request: Request, _ context: ServerContext) throws -> Response {
        let write = try WriteRequest(request, context, body: "application/json-patch+json")
        let (id, precondition) = (write.id, write.precondition)
        return try APIError.mapping {
            let patch = try JSONPatch(parsing: request.body)
            do {
                let snapshot = try context.registry.writeRows(id: id, precondition: precondition) { list in
                    guard let edit = list.rowEdit(applying: patch) else { throw NotOneRow() }
                    return edit
                }
                return WriteAnswer.response(snapshot)
            } catch is NotOneRow {}
            let snapshot = try context.registry.write(id: id, precondition: precondition) { old in
                let patched = try patch.apply(to: old!.json)
                return try ListDocument(json: patched, limits: context.documentLimits)
            }
            return WriteAnswer.response(snapshot)
        }
    }

    /// Thrown inside a row write when the patch is not a one-row edit, to go the whole way.
    private struct NotOneRow: Error {}

    /// `DELETE /lists/{id}`: 204; subscribers get `event: deleted`.
    static func delete(_ request: Request, _ context: ServerContext) throws -> Response {
        let write = try WriteRequest(request, context, body: nil)
        let (id, precondition) = (write.id, write.precondition)
        return try APIError.mapping {
            try context.registry.delete(id: id, precondition: precondition)
            return Response(status: .noContent)
        }
    }
}
