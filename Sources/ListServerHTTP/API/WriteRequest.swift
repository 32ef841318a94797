import HTTPServer
import ListService

/// What every write checks before it touches a list, always in this order: the bearer token
/// (401), the list id (400), the token's `write` right on it (403), the body's media type (415),
/// then `If-Match`/`If-None-Match` (400).
package struct WriteRequest {
    package let id: String
    package let precondition: WritePrecondition

    /// - Parameter body: the media type the body must have; nil for writes without a body.
    package init(_ request: Request, _ authorization: Authorization, body mediaType: String?) throws {
        let rights = try authorization.writer(request)
        id = try ListID.validated(request.parameter("id"))
        try authorization.requireWrite(rights, on: id)
        if let mediaType { try Negotiation.requireBody(of: mediaType, request) }
        precondition = try Conditional.precondition(request)
    }
}
