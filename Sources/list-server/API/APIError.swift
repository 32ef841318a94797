import HTTPServer
import ListModel
import ListStore

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
            case .contended(let id):
                return HTTPError(.serviceUnavailable, "Other writers kept changing list \"\(id)\" first; try again.",
                                 headers: ["Retry-After": "1"])
            }
        case let error as StoreError:
            return storeProblem(error)
        default:
            return nil
        }
    }

    /// The answer for a store that could not do what was asked; the store's own message goes to
    /// the log only (it may name hosts or paths).
    static func storeProblem(_ error: StoreError) -> HTTPError? {
        switch error.kind {
        case .unavailable:
            Log.info("store unavailable: \(error.message)")
            return HTTPError(.serviceUnavailable, "The store cannot be reached; try again shortly.",
                             headers: ["Retry-After": "\(retryAfterSeconds)"])
        case .full:
            Log.info("store full: \(error.message)")
            return HTTPError(HTTPStatus(507), "The store has no room left for this write; deleting lists frees some.",
                             title: "Insufficient Storage")
        case .failed:
            return nil
        }
    }

    /// What `Retry-After` asks of a client while the store cannot be reached.
    static let retryAfterSeconds = 2

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
