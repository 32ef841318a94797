import HTTPServer
import ListService

/// What every write checks before it touches a list, always in this order: the bearer token
/// (401), the list id (400), the token's `write` right on it (403), the body's media type (415),
/// then `If-Match`/`If-None-Match` (400). A write with an edit link's `key` and no token checks
/// the id first, then the key against it (403 when it is not an edit link of that list).
package struct WriteRequest {
    package let id: String
    package let precondition: WritePrecondition

    /// - Parameter body: the media type the body must have; nil for writes without a body.
    package init(_ request: Request, _ authorization: Authorization, body mediaType: String?) throws {
        // An edit link's key is checked for its list, so the id comes first when there is one
        // (and no token); otherwise the token, then the id, as always.
        let rights: Rights
        if request.query("key") != nil, request.headers["Authorization"] == nil {
            id = try ListID.validated(request.parameter("id"))
            rights = try authorization.writer(request, list: id)
        } else {
            rights = try authorization.writer(request)
            id = try ListID.validated(request.parameter("id"))
        }
        try authorization.requireWrite(rights, on: id)
        if let mediaType { try Negotiation.requireBody(of: mediaType, request) }
        precondition = try Conditional.precondition(request)
    }
}
