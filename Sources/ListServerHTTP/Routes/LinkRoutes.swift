import Foundation
import HTTPServer
import ListModel
import ListService

/// `POST /lists/{id}/links?expires=SECONDS&right=read|write`: a signed link to one list (API.md
/// section 2, docs/ACCESS.md). Needs a token with `write` on the list; the link grants `read` on
/// it alone, or with `right=write` (an edit link) `write` too.
package enum LinkRoutes {
    package static func register(on router: inout Router, context: ServerContext) {
        router.post("/lists/{id}/links") { request in try create(request, context) }
    }

    /// 201 `{"url": "http://HOST/lists/{id}?key=…", "expires": "<RFC 3339>"}`, also in `Location`:
    /// an absolute URL, ready to send, on `--base-url`, else on the host (and scheme) the request
    /// came to.
    /// - Throws: 401/403 as for any write, 400 for a bad id or `expires`, 404 for an unknown list.
    package static func create(_ request: Request, _ context: ServerContext) throws -> Response {
        let rights = try context.authorization.writer(request)
        let id = try ListID.validated(request.parameter("id"))
        try context.authorization.requireWrite(rights, on: id)
        let lifetime = try lifetime(request)
        _ = try context.registry.existing(id: id)
        let expiry = Int(Date().timeIntervalSince1970) + lifetime
        let right = try linkRight(request)
        let path = "/lists/\(id)?key=\(context.authorization.policy.viewLinks.key(for: id, expiry: expiry, right: right))"
        let url = (context.baseURL ?? origin(of: request)).map { $0 + path } ?? path
        let body: JSONValue = .object(
            JSONObject([
                ("url", .string(url)),
                ("expires", .string(Date(timeIntervalSince1970: TimeInterval(expiry)).formatted(.iso8601))),
            ]))
        var response = Response.json(body.serialized(), status: .created)
        response.headers["Location"] = url
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// `scheme://host` the request was sent to: its `Host`, and `https` when a proxy in front says
    /// so (`X-Forwarded-Proto: https`, or `Forwarded: proto=https`); nil without a usable `Host`.
    /// The link goes back to the same client, so a forged header fools only its sender.
    static func origin(of request: Request) -> String? {
        guard let host = request.headers["Host"], !host.isEmpty,
            host.utf8.allSatisfy({
                $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "\\")
                    && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") && $0 != UInt8(ascii: "@")
            })
        else { return nil }
        let forwardedProto = request.headers["X-Forwarded-Proto"]?.lowercased()
        let forwarded = request.headers["Forwarded"]?.lowercased() ?? ""
        let secure = forwardedProto == "https" || forwarded.contains("proto=https")
        return (secure ? "https://" : "http://") + host
    }

    /// `right`: `read` (the default) or `write`.
    package static func linkRight(_ request: Request) throws -> ViewLinks.Right {
        guard let text = request.query("right") else { return .read }
        guard let right = ViewLinks.Right(rawValue: text) else {
            throw HTTPError(.badRequest, "right must be read or write.")
        }
        return right
    }

    /// `expires`: whole seconds from 1 to a year; a week when absent.
    package static func lifetime(_ request: Request) throws -> Int {
        guard let text = request.query("expires") else { return ViewLinks.defaultLifetime }
        guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Int(text),
            (1...ViewLinks.maxLifetime).contains(seconds)
        else {
            throw HTTPError(.badRequest, "expires must be a whole number of seconds from 1 to \(ViewLinks.maxLifetime) (a year).")
        }
        return seconds
    }
}
