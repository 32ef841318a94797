import HTTPServer
import ListModel

extension LiveHub {
    /// Where a new subscriber starts: read from its channel under the channel's lock, then
    /// used under no lock to make its first events.
    struct StartingPoint {
        /// The channel's current version: the subscriber's first events bring it there.
        let current: ListSnapshot
        /// The version the client holds, when the channel still keeps it (`view=html` resumes).
        let base: ListSnapshot?
        let window: LiveWindow
        /// The channel's view of `window` at `current`, when it has one.
        let view: LiveView?
    }

    /// A new subscriber's first events, made for one version of its list.
    struct FirstEvents {
        let version: Int
        let window: LiveWindow
        var events: [[UInt8]] = []
        /// The `view=html` view of the window at `version`, for the channel to keep.
        var view: LiveView?
    }

    /// The starting point of `request` on a channel in `state`. Cheap: no rendering.
    func startingPoint(of request: SubscribeRequest, state: LiveChannel.State) -> StartingPoint {
        let current = state.current
        let base = request.since.flatMap { since in state.recent.first { $0.snapshot.version == since }?.snapshot }
        let window: LiveWindow
        switch request.window {
        case .limit(let limit): window = LiveWindow(limit: limit, in: (base ?? current).list)
        case .until(let cursor): window = .through(cursor)
        }
        return StartingPoint(current: current, base: base, window: window,
                             view: request.view == .html ? state.views[window] : nil)
    }

    /// The reset, or the patches that bring a client at `since` to `start.current`. The costly
    /// part of subscribing (serializing a document, rendering a window, reading the store's
    /// change log), so `attach` runs it outside the channel's lock when it can.
    func firstEvents(for request: SubscribeRequest, subscription id: String, from start: StartingPoint,
                     rowMarkup: RowMarkupCache) -> FirstEvents {
        let current = start.current
        var first = FirstEvents(version: current.version, window: start.window)
        if let since = request.since, since == current.version { return first }
        switch request.view {
        case .json:
            if let since = request.since, since < current.version,
               let changes = storedChanges(of: request.listID, after: since)?.filter({ $0.version <= current.version }),
               changes.first?.version == since + 1, changes.last?.version == current.version {
                first.events = changes.map { ServerSentEvent.patch(serialized: $0.patch, version: $0.version) }
            } else {
                first.events = [ServerSentEvent.reset(version: current.version, subscription: id,
                                                      serializedDocument: current.documentJSON)]
            }
        case .html:
            let view = start.view
                ?? LiveView(snapshot: current, window: start.window, renderer: renderer, rowMarkup: rowMarkup)
            first.view = view
            if let base = start.base {
                var patch = LiveView.patch(
                    from: LiveView(snapshot: base, window: start.window, renderer: renderer, rowMarkup: rowMarkup),
                    to: view)
                // The client may have named its window by row count (`limit=`): its `until` can
                // differ from the window's, so the first patch always states it.
                let until = JSONPointer(tokens: ["until"])
                if !patch.operations.contains(where: { $0.path == until || $0.path == .root }) {
                    patch.operations.append(.replace(path: until, value: view.until.map(JSONValue.string) ?? .null))
                }
                first.events = [ServerSentEvent.patch(patch, version: current.version)]
            } else {
                first.events = [ServerSentEvent.reset(version: current.version, subscription: id, document: view.json)]
            }
        }
        return first
    }

    /// A `reset` for a subscriber's view of `window` at `snapshot` (for `view=json` the whole
    /// document, shared per version); `rowMarkup` is its channel's cache of rendered rows, so a
    /// reset renders only rows no view has rendered yet.
    func resetEvent(view: Subscriber.View, subscription id: String, window: LiveWindow, at snapshot: ListSnapshot,
                    rowMarkup: RowMarkupCache) -> [UInt8] {
        switch view {
        case .json:
            return ServerSentEvent.reset(version: snapshot.version, subscription: id, serializedDocument: snapshot.documentJSON)
        case .html:
            let view = LiveView(snapshot: snapshot, window: window, renderer: renderer, rowMarkup: rowMarkup)
            return ServerSentEvent.reset(version: snapshot.version, subscription: id, document: view.json)
        }
    }
}
