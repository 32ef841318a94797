/// Why a subscription's window cannot grow (`LiveHub.extend`).
package enum SubscriptionError: Error, Equatable {
    /// No open subscription with this id on this list (HTTP 404).
    case unknown(id: String, listID: String)
    /// The subscription has whole document and no window to extend (HTTP 409).
    case noWindow
}
