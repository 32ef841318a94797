import HTMLRenderer
import ListModel
import Synchronization

/// One watched list: the version its subscribers are at, who they are, and what the hub keeps
/// to serve them. Everything in `state` is guarded by the channel's own lock, so work for one
/// list never waits for another list's (docs/LIVE.md, "Locking").
final class LiveChannel: Sendable {
    struct State {
        var current: ListSnapshot
        var subscribers: [String: Subscriber] = [:]
        /// The versions before `current`, oldest first, for resuming `view=html` streams and
        /// bringing a new subscriber from the version its first events were made for.
        var recent: [PastVersion] = []
        /// When the last subscriber left (monotonic nanoseconds); the channel is kept for
        /// `idleChannelSeconds` so that a lone client that reconnects can still resume.
        var idleSince: UInt64?
        /// The view of each subscribed window at `current`, so a write renders each once.
        var views: [LiveWindow: LiveView] = [:]
        /// Set once the channel has left the hub (its list was deleted, or it stayed idle too
        /// long): nothing changes in it any more, and a subscriber that still found it starts over.
        var closed = false

        /// The view of `window` at `current`, from the cache when it is there.
        mutating func currentView(_ window: LiveWindow, renderer: HTMLRenderer, rowMarkup: RowMarkupCache) -> LiveView {
            if let view = views[window] { return view }
            let view = LiveView(snapshot: current, window: window, renderer: renderer, rowMarkup: rowMarkup)
            views[window] = view
            return view
        }
    }

    /// A version before the current one.
    struct PastVersion {
        let snapshot: ListSnapshot
        /// The `view=json` patch from it to the next version; nil when the write that followed
        /// did not start from it (a list created again under the same id).
        let patchToNext: JSONPatch?
    }

    let listID: String
    let state: Mutex<State>
    /// Rendered rows, reused across versions (it has its own lock: resets render outside `state`'s).
    let rowMarkup = RowMarkupCache()

    init(listID: String, current: ListSnapshot) {
        self.listID = listID
        state = Mutex(State(current: current))
    }
}
