import HTTPServer
import ListService

extension SubscriptionError: HTTPResponseError {
    /// 404 for an unknown subscription, 409 for one without a window.
    package var status: HTTPStatus {
        switch self {
        case .unknown: .notFound
        case .noWindow: .conflict
        }
    }

    package var problemDetail: String? {
        switch self {
        case .unknown(let id, let listID): "There is no open subscription \"\(id)\" on list \"\(listID)\"."
        case .noWindow: "This subscription has the whole document; open it with limit or until to get a window to extend."
        }
    }
}
