import HTTPServer
import ListService

extension RegistryError: HTTPResponseError {
    /// 404, 412, 507 (too many lists) or 503 with `Retry-After` (contended), as the cases say.
    package var status: HTTPStatus {
        switch self {
        case .notFound: .notFound
        case .preconditionFailed: .preconditionFailed
        case .tooManyLists: .insufficientStorage
        case .contended: .serviceUnavailable
        }
    }

    package var problemDetail: String? {
        switch self {
        case .notFound(let id): "There is no list \"\(id)\"."
        case .preconditionFailed(let message): message
        case .tooManyLists(let limit): "The server holds its limit of \(limit) lists; delete one first."
        case .contended(let id): "Other writers kept changing list \"\(id)\" first; try again."
        }
    }

    package var responseHeaders: HTTPHeaders {
        if case .contended = self { return ["Retry-After": "1"] }
        return HTTPHeaders()
    }
}
