import HTTPServer
import ListModel

/// Maps the errors of the model and the registry to the HTTP answers API.md promises.
enum APIError {
    /// The problem to answer for `error`, or nil when it is not a client's fault (a 500).
    static func http(for error: any Error) -> HTTPError? {
        switch error {
        case let error as HTTPError:
            return error
        case let error as JSONParseError:
            return HTTPError(.badRequest, "The body is not valid JSON: \(error)")
        case let error as JSONPatchError:
            return HTTPError(error.kind == .malformed ? .badRequest : .conflict, "The patch \(error.kind == .malformed ? "is malformed" : "does not apply"): \(error)")
        case let error as ListDocumentError:
            return HTTPError(.unprocessableContent, "The result is not a valid list: \(error)")
        case let error as ListEditError:
            return HTTPError(error.kind == .notFound ? .notFound : .unprocessableContent, error.message)
        case let error as CursorError:
            return HTTPError(.badRequest, "Bad cursor: \(error)")
        case let error as RegistryError:
            switch error {
            case .notFound(let id):
                return HTTPError(.notFound, "There is no list \"\(id)\".")
            case .preconditionFailed(let message):
                return HTTPError(.preconditionFailed, message)
            case .tooManyLists(let limit):
                return HTTPError(HTTPStatus(507), "The server holds its limit of \(limit) lists; delete one first.",
                                 title: "Insufficient Storage")
            }
        default:
            return nil
        }
    }

    /// Runs `body`, turning known errors into their HTTP problems; others pass through as 500s.
    static func mapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            if let problem = http(for: error) { throw problem }
            throw error
        }
    }
}
