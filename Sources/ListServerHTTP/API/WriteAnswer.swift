import HTTPServer
import ListModel
import ListService

/// The small JSON answer of every write: which list, its new version and its row count.
package enum WriteAnswer {
    package static func response(_ snapshot: ListSnapshot, status: HTTPStatus = .ok) -> Response {
        if status == .noContent {
            return Response(status: .noContent, headers: ["ETag": Conditional.etag(snapshot.version)])
        }
        let body: JSONValue = [
            "id": .string(snapshot.id),
            "version": .number(Double(snapshot.version)),
            "rows": .number(Double(snapshot.list.rowCount)),
        ]
        var response = Response.json(body.serialized(), status: status)
        response.headers["ETag"] = Conditional.etag(snapshot.version)
        if status == .created { response.headers["Location"] = "/lists/\(snapshot.id)" }
        return response
    }
}
