import HTTPServer
import ListService
import ListStore

extension StoreError: HTTPResponseError {
    /// What `Retry-After` asks of a client while the store cannot be reached.
    package static let retryAfterSeconds = 2

    /// 503 while the store cannot be reached, 507 when it is full, 500 for anything else.
    public var status: HTTPStatus {
        switch kind {
        case .unavailable: .serviceUnavailable
        case .full: .insufficientStorage
        case .failed: .internalServerError
        }
    }

    /// Says what the client can do; the store's own message goes to the log only (it may name
    /// hosts or paths).
    public var problemDetail: String? {
        switch kind {
        case .unavailable: "The store cannot be reached; try again shortly."
        case .full: "The store has no room left for this write; deleting lists frees some."
        case .failed: HTTPError.internalFailureDetail
        }
    }

    public var responseHeaders: HTTPHeaders {
        kind == .unavailable ? ["Retry-After": "\(Self.retryAfterSeconds)"] : HTTPHeaders()
    }

    public var logMessage: String? {
        switch kind {
        case .unavailable: "store unavailable: \(message)"
        case .full: "store full: \(message)"
        case .failed: nil  // answered 500, so logged with the request
        }
    }
}
