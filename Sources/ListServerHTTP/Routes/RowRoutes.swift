import HTTPServer
import ListModel
import ListService

/// Keyed row edits: append or insert rows into a section, replace or delete one row. Each
/// describes what it changed (`IndexedRowEdit`), so no whole-list diff is computed.
package enum RowRoutes {
    package static func register(on router: inout Router, context: ServerContext) {
        router.post("/lists/{id}/sections/{section}/rows") { request in try insert(request, context) }
        router.put("/lists/{id}/rows/{row}") { request in try replace(request, context) }
        router.delete("/lists/{id}/rows/{row}") { request in try remove(request, context) }
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
        let snapshot = try context.registry.writeRows(id: id, precondition: precondition) { list in
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
        let snapshot = try context.registry.writeRows(id: id, precondition: precondition) { list in
            try list.removingRow(key: rowKey)
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
