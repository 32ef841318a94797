import HTTPServer
import ListService
import ListStore

extension StoreError: HTTPResponseError {
    /// What `Retry-After` asks of a client while the store cannot be reached.
    package static let retryAfterSeconds = 2

    /// 503 while the store cannot be reached or a lock in it was waited for too long, 507 when
    /// it is full, 500 for anything else. (A write's `.busy` reaches clients as
    /// `RegistryError.busy`, which names the list.)
    public var status: HTTPStatus {
        switch kind {
        case .unavailable, .busy: .serviceUnavailable
        case .full: .insufficientStorage
        case .failed: .internalServerError
        }
    }

    /// Says what the client can do; the store's own message goes to the log only (it may name
    /// hosts or paths).
    public var problemDetail: String? {
        switch kind {
        case .unavailable: "The store cannot be reached; try again shortly."
        case .busy: "Another writer holds a lock in the store; gave up waiting for it. Try again shortly."
        case .full: "The store has no room left for this write; deleting lists frees some."
        case .failed: HTTPError.internalFailureDetail
        }
    }

    public var responseHeaders: HTTPHeaders {
        switch kind {
        case .unavailable: ["Retry-After": "\(Self.retryAfterSeconds)"]
        case .busy: ["Retry-After": "1"]
        default: HTTPHeaders()
        }
    }

    public var logMessage: String? {
        switch kind {
        case .unavailable: "store unavailable: \(message)"
        case .busy: "store busy: \(message)"
        case .full: "store full: \(message)"
        case .failed: nil  // answered 500, so logged with the request
        }
    }
}
