import ListModel

extension LiveHub {
    /// Grows a `view=html` subscription's window by `extra` rows; the rows reach the client as
    /// `add` operations in its stream. Returns how many rows the window holds and whether
    /// more remain. Holds the list's channel lock only.
    /// - Throws: `SubscriptionError.unknown` for an unknown subscription of this list,
    ///   `.noWindow` for a `view=json` one.
    func extend(subscription id: String, listID: String, by extra: Int) throws -> (rows: Int, more: Bool) {
        let unknown = SubscriptionError.unknown(id: id, listID: listID)
        guard let channel = directory.withLock({ $0.channelOfSubscription[id] }), channel.listID == listID else {
            throw unknown
        }
        return try channel.state.withLock { state in
            publishPending(on: channel, state: &state)
            guard let subscriber = state.subscribers[id] else { throw unknown }
            guard subscriber.view == .html else {
                throw SubscriptionError.noWindow
            }
            let current = state.current
            let window = subscriber.window
            let grown = window.extended(by: extra, in: current.list)
            let before = state.views[window]
                ?? LiveView(snapshot: current, window: window, renderer: renderer, rowMarkup: channel.rowMarkup)
            let after: LiveView
            let patch: JSONPatch
            if let growth = LiveView.growing(before, from: window, to: grown, snapshot: current,
                                             renderer: renderer, rowMarkup: channel.rowMarkup) {
                (after, patch) = growth
            } else {
                after = LiveView(snapshot: current, window: grown, renderer: renderer, rowMarkup: channel.rowMarkup)
                patch = LiveView.patch(from: before, to: after)
            }
            state.views[grown] = after
            subscriber.window = grown
            if !subscriber.stale && subscriber.version == current.version {
                subscriber.stream.write(ServerSentEvent.patch(patch, version: current.version))
            }
            return (grown.rowCount(in: current.list), after.more)
        }
    }
}
