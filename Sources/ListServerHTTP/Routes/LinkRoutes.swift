import Foundation
import HTTPServer
import ListModel
import ListService

/// `POST /lists/{id}/links?expires=SECONDS`: a signed view link to one list (API.md section 2,
/// docs/ACCESS.md). Needs `write` on the list; the link grants `read` on it alone.
package enum LinkRoutes {
    package static func register(on router: inout Router, context: ServerContext) {
        router.post("/lists/{id}/links") { request in try create(request, context) }
    }

    /// 201 `{"url": "/lists/{id}?key=…", "expires": "<RFC 3339>"}`, also in `Location`.
    /// - Throws: 401/403 as for any write, 400 for a bad id or `expires`, 404 for an unknown list.
    package static func create(_ request: Request, _ context: ServerContext) throws -> Response {
        let rights = try context.authorization.writer(request)
        let id = try ListID.validated(request.parameter("id"))
        try context.authorization.requireWrite(rights, on: id)
        let lifetime = try lifetime(request)
        _ = try context.registry.existing(id: id)
        let expiry = Int(Date().timeIntervalSince1970) + lifetime
        let url = "/lists/\(id)?key=\(context.authorization.policy.viewLinks.key(for: id, expiry: expiry))"
        let body: JSONValue = .object(JSONObject([
            ("url", .string(url)),
            ("expires", .string(Date(timeIntervalSince1970: TimeInterval(expiry)).formatted(.iso8601))),
        ]))
        var response = Response.json(body.serialized(), status: .created)
        response.headers["Location"] = url
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// `expires`: whole seconds from 1 to a year; a week when absent.
    package static func lifetime(_ request: Request) throws -> Int {
        guard let text = request.query("expires") else { return ViewLinks.defaultLifetime }
        guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Int(text),
              (1...ViewLinks.maxLifetime).contains(seconds) else {
            throw HTTPError(.badRequest, "expires must be a whole number of seconds from 1 to \(ViewLinks.maxLifetime) (a year).")
        }
        return seconds
    }
}
