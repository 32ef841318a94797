import ListModel

/// One open `/events` stream. Its mutable state is guarded by its channel's lock.
package final class Subscriber: @unchecked Sendable {
    package enum View: Hashable, Sendable {
        /// Patches on the whole list document.
        case json
        /// Patches on a window of the list document (`view=json` with `limit` or `until`).
        case jsonWindow
        /// Patches on the rendered rows of a window.
        case html
    }

    // What every publish reads comes first, so that it shares the object's first cache lines.
    package let stream: any SubscriberStream
    package let view: View
    /// Set when its stream fell behind and patches were dropped: it needs a `reset`.
    package var stale = false
    /// The version of the last event this subscriber was sent (or is being sent by its reset).
    package var version: Int
    /// The window of a `view=html` or windowed `view=json` subscriber.
    package var window: LiveWindow
    /// The view of a live view's subscriber (`sort`, `q`, filters); nil for the list itself.
    package let query: ListQuery?
    /// Unguessable: it authorises `…/more` on this stream.
    package let id: String
    package let listID: String
    /// Where a live view's window ends (`.whole` for `view=json` without `limit` or `until`).
    package var viewEnd: ViewWindowEnd = .whole
    /// When it fell behind (monotonic nanoseconds), to disconnect one that never catches up.
    package var staleSince: UInt64 = 0
    /// The viewer count of the last `presence` event it was sent, and when (monotonic nanoseconds).
    package var presenceSent: Int?
    package var presenceSentAt: UInt64 = 0

    package init(
        id: String, listID: String, view: View, stream: any SubscriberStream, window: LiveWindow, version: Int,
        query: ListQuery? = nil, viewEnd: ViewWindowEnd = .whole
    ) {
        self.id = id
        self.query = query
        self.viewEnd = viewEnd
        self.listID = listID
        self.view = view
        self.stream = stream
        self.window = window
        self.version = version
    }
}
