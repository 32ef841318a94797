import HTTPServer
import ListModel
import ListService

/// Keyed row edits: append or insert rows into a section, read, replace, merge, move or delete
/// one row. Each describes what it changed (`IndexedRowEdit`), so no whole-list diff is computed.
///
/// The endpoints of one row (`…/rows/{row}`) compare `If-Match` / `If-None-Match` with the
/// row's version, not the list's, inside the list's write (`IndexedList.requireRow`): 412 with
/// the row as it is now (`current`).
package enum RowRoutes {
    package static func register(on router: inout Router, context: ServerContext) {
        router.post("/lists/{id}/sections/{section}/rows") { request in try insert(request, context) }
        router.get("/lists/{id}/rows/{row}") { request in try read(request, context) }
        router.put("/lists/{id}/rows/{row}") { request in try replace(request, context) }
        router.patch("/lists/{id}/rows/{row}") { request in try merge(request, context) }
        router.delete("/lists/{id}/rows/{row}") { request in try remove(request, context) }
        router.post("/lists/{id}/rows/{row}/move") { request in try move(request, context) }
    }

    /// `GET …/rows/{row}`: `{"key", "section", "cells", "href", "style"}` (canonical), with the
    /// row's version as its `ETag`; 304 for a matching `If-None-Match`.
    package static func read(_ request: Request, _ context: ServerContext) throws -> Response {
        let id = try ListID.validated(request.parameter("id"))
        _ = try context.authorization.requireRead(request, list: id)
        let snapshot = try context.registry.existing(id: id)
        let rowKey = try request.parameter("row")
        guard let version = snapshot.list.version(ofRow: rowKey), let resource = snapshot.list.rowResource(rowKey) else {
            throw HTTPError(.notFound, "List \"\(snapshot.id)\" has no row with key \(JSONValue.string(rowKey).serializedText).")
        }
        let etag = Conditional.etag(version)
        let cacheControl = context.authorization.cacheControl(request)
        return .validated(etag: etag) {
            var response = Response.json(resource.serialized())
            response.headers["ETag"] = etag
            response.headers["Cache-Control"] = cacheControl
            return response
        }
    }

    /// `PATCH …/rows/{row}` with `application/merge-patch+json` (RFC 7396): merged into the row's
    /// JSON (`cells` member by member, `href`, `style`; `null` removes); changing `key` is 422.
    package static func merge(_ request: Request, _ context: ServerContext) throws -> Response {
        let write = try WriteRequest(request, context.authorization, body: "application/merge-patch+json")
        let rowKey = try request.parameter("row")
        let patch = try JSONValue(parsing: request.body)
        guard case .object(let members) = patch else {
            throw HTTPError(.unprocessableContent, "The body must be a merge patch object, such as {\"cells\": {\"qty\": 5}}.")
        }
        if let key = members["key"], key != .string(rowKey) {
            throw HTTPError(
                .unprocessableContent, "/key: a row's key cannot change (the URL names \(JSONValue.string(rowKey).serializedText)).")
        }
        if members["section"] != nil {
            throw HTTPError(.unprocessableContent, "/section: move the row with POST /lists/{id}/rows/{row}/move.")
        }
        let snapshot = try context.registry.writeRows(id: write.id) { list in
            try list.requireRow(rowKey, write.precondition)
            guard let position = list.position(ofRow: rowKey) else {
                throw HTTPError(.notFound, "There is no row with key \(JSONValue.string(rowKey).serializedText).")
            }
            let current = list.row(atPosition: position).json(columns: list.document.columns)
            let row = try rowsProblem { try Row(json: current.mergePatched(with: patch), columns: list.document.columns) }
            return try list.replacingRow(row)
        }
        return WriteAnswer.response(snapshot)
    }

    /// `POST …/rows/{row}/move?before=ROW|after=ROW|section=SECTION` (exactly one): the row
    /// keeps its key and content and takes the write's version.
    package static func move(_ request: Request, _ context: ServerContext) throws -> Response {
        let write = try WriteRequest(request, context.authorization, body: nil)
        let rowKey = try request.parameter("row")
        let target: RowMoveTarget
        switch (request.query("before"), request.query("after"), request.query("section")) {
        case (let before?, nil, nil): target = .before(before)
        case (nil, let after?, nil): target = .after(after)
        case (nil, nil, let section?): target = .endOf(section: section)
        default: throw HTTPError(.badRequest, "Give one of before, after or section.")
        }
        let snapshot = try context.registry.writeRows(id: write.id) { list in
            try list.requireRow(rowKey, write.precondition)
            return try list.movingRow(key: rowKey, to: target)
        }
        return WriteAnswer.response(snapshot)
    }

    /// `POST …/sections/{section}/rows[?before=ROW|?after=ROW]`: a JSON array of rows.
    package static func insert(_ request: Request, _ context: ServerContext) throws -> Response {
        let write = try WriteRequest(request, context.authorization, body: "application/json")
        let (id, precondition) = (write.id, write.precondition)
        let sectionKey = try request.parameter("section")
        let position = try insertPosition(request)
        let json = try JSONValue(parsing: request.body)
        let snapshot = try context.registry.writeRows(id: id, precondition: precondition) { list in
            let rows = try rowsProblem { try Row.rows(json: json, columns: list.document.columns) }
            let edit = try list.insertingRows(rows, inSection: sectionKey, at: position)
            try requireRowLimit(edit.list.document, context)
            return edit
        }
        return WriteAnswer.response(snapshot)
    }

    /// `PUT …/rows/{row}`: replaces that row in place. The body's `key` may be left out; if
    /// given it must be the row's key.
    package static func replace(_ request: Request, _ context: ServerContext) throws -> Response {
        let write = try WriteRequest(request, context.authorization, body: "application/json")
        let (id, precondition) = (write.id, write.precondition)
        let rowKey = try request.parameter("row")
        guard case .object(var object) = try JSONValue(parsing: request.body) else {
            throw HTTPError(.unprocessableContent, "The body must be a row object.")
        }
        if let key = object["key"], key != .string(rowKey) {
            throw HTTPError(.unprocessableContent, "/key: the body names row \(key.serializedText), but the URL names \"\(rowKey)\".")
        }
        object["key"] = .string(rowKey)
        let snapshot = try context.registry.writeRows(id: id) { list in
            try list.requireRow(rowKey, precondition)
            let row = try rowsProblem { try Row(json: .object(object), columns: list.document.columns) }
            return try list.replacingRow(row)
        }
        return WriteAnswer.response(snapshot)
    }

    /// `DELETE …/rows/{row}`: 204 with the new version in `ETag`.
    package static func remove(_ request: Request, _ context: ServerContext) throws -> Response {
        let write = try WriteRequest(request, context.authorization, body: nil)
        let (id, precondition) = (write.id, write.precondition)
        let rowKey = try request.parameter("row")
        let snapshot = try context.registry.writeRows(id: id) { list in
            try list.requireRow(rowKey, precondition)
            return try list.removingRow(key: rowKey)
        }
        return WriteAnswer.response(snapshot, status: .noContent)
    }

    /// `before` or `after` from the query; both at once is a 400.
    package static func insertPosition(_ request: Request) throws -> RowInsertPosition {
        switch (request.query("before"), request.query("after")) {
        case (nil, nil): return .end
        case (let before?, nil): return .before(before)
        case (nil, let after?): return .after(after)
        default: throw HTTPError(.badRequest, "Give before or after, not both.")
        }
    }

    /// Runs row validation, answering 422 with the pointer into the request body.
    package static func rowsProblem<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ListDocumentError {
            throw HTTPError(.unprocessableContent, "The request's rows are not valid: \(error)")
        }
    }

    package static func requireRowLimit(_ document: ListDocument, _ context: ServerContext) throws {
        let limit = context.documentLimits.maxRows
        guard document.rowCount <= limit else {
            throw HTTPError(.unprocessableContent, "The list may hold at most \(limit) rows.")
        }
    }
}
