import Foundation
import HTTPServer
import ListService

extension RegistryError: HTTPResponseError {
    /// 404, 410 (deleted), 412, 507 (too many lists) or 503 with `Retry-After` (contended, busy, queue full), as the cases say.
    package var status: HTTPStatus {
        switch self {
        case .notFound: .notFound
        case .gone: .gone
        case .preconditionFailed: .preconditionFailed
        case .tooManyLists: .insufficientStorage
        case .contended, .busy, .queueFull: .serviceUnavailable
        }
    }

    package var problemDetail: String? {
        switch self {
        case .notFound(let id): "There is no list \"\(id)\"."
        case .gone(let id, _): "List \"\(id)\" was deleted."
        case .preconditionFailed(let message): message
        case .tooManyLists(let limit): "The server holds its limit of \(limit) lists; delete one first."
        case .contended(let id): "Other writers kept changing list \"\(id)\" first; try again."
        case .busy(let id, let seconds, _):
            "List \"\(id)\" is being written by another writer (or locked in the store); gave up after \(Self.format(seconds)) s."
        case .queueFull(let id, let waiting):
            "List \"\(id)\" is being written by another writer (or locked in the store), and \(waiting) more writes wait for it already; try again later."
        }
    }

    package var responseHeaders: HTTPHeaders {
        switch self {
        case .contended, .busy, .queueFull: ["Retry-After": "1"]
        default: HTTPHeaders()
        }
    }

    package var logMessage: String? {
        if case .busy(let id, let seconds, let cause) = self {
            return "write to list \(id) gave up after \(Self.format(seconds)) s: \(cause)"
        }
        return nil
    }

    /// `10`, `2.5`: whole seconds without a fraction.
    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%g", seconds)
    }
}

extension RowPreconditionFailed: HTTPResponseError {
    /// 412 whose problem also holds `current`: the row as it is now, or null when it is gone.
    package var status: HTTPStatus { .preconditionFailed }
    package var problemDetail: String? { message }
    package var problemMembers: String? {
        "\"current\":" + String(decoding: (current ?? .null).serialized(), as: UTF8.self)
    }
}
