import HTTPServer
import ListModel
import ListService

// The answers API.md promises for the model's errors. ListModel knows no HTTP, so its errors
// conform here.

extension JSONParseError: HTTPResponseError {
    /// A body that is not JSON is a 400.
    public var status: HTTPStatus { .badRequest }
    public var problemDetail: String? { "The body is not valid JSON: \(self)" }
}

extension JSONPatchError: HTTPResponseError {
    /// 400 for a malformed patch, 409 for one that does not apply to this document.
    public var status: HTTPStatus { HTTPStatus(httpStatus) }
    public var problemDetail: String? {
        "The patch \(kind == .malformed ? "is malformed" : "does not apply"): \(self)"
    }
}

extension ListDocumentError: HTTPResponseError {
    /// A write whose result is not a valid list is a 422.
    public var status: HTTPStatus { .unprocessableContent }
    public var problemDetail: String? { "The result is not a valid list: \(self)" }
}

extension ListEditError: HTTPResponseError {
    /// 404 for a section or row that does not exist, 422 for an edit that would break the list.
    public var status: HTTPStatus { kind == .notFound ? .notFound : .unprocessableContent }
    public var problemDetail: String? { message }
}

extension CursorError: HTTPResponseError {
    /// A cursor that does not decode is a 400.
    public var status: HTTPStatus { .badRequest }
    public var problemDetail: String? { "Bad cursor: \(self)" }
}
