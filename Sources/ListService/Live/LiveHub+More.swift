import ListModel

extension LiveHub {
    /// Grows a windowed subscription (`view=html`, or `view=json` with `limit`/`until`) by
    /// `extra` rows; the rows reach the client as `add` operations in its stream. Returns how
    /// many rows the window holds and whether more remain. Holds the list's channel lock only.
    /// - Throws: `SubscriptionError.unknown` for an unknown subscription of this list,
    ///   `.noWindow` for a whole-document `view=json` one (it has no window).
    package func extend(subscription id: String, listID: String, by extra: Int) throws -> (rows: Int, more: Bool) {
        let unknown = SubscriptionError.unknown(id: id, listID: listID)
        guard let channel = directory.withLock({ $0.channelOfSubscription[id] }), channel.listID == listID else {
            throw unknown
        }
        return try channel.state.withLock { state in
            publishPending(on: channel, state: &state)
            guard let subscriber = state.subscribers[id] else { throw unknown }
            if subscriber.query != nil { return try extendView(subscriber, by: extra, state: &state, channel: channel) }
            let current = state.current
            let window = subscriber.window
            let grown = window.extended(by: extra, in: current.list)
            let patch: JSONPatch
            let more: Bool
            switch subscriber.view {
            case .json:
                throw SubscriptionError.noWindow
            case .jsonWindow:
                let before = state.currentJSONView(window)
                let after = JSONWindowView(snapshot: current, window: grown)
                patch = JSONWindowView.patch(from: before, to: after)
                state.jsonViews[grown] = after
                more = after.more
            case .html:
                let after: LiveView
                (after, patch) = grownView(state: &state, channel: channel, from: window, to: grown)
                state.views[grown] = after
                more = after.more
            }
            subscriber.window = grown
            if !subscriber.stale && subscriber.version == current.version {
                subscriber.stream.write(ServerSentEvent.patch(patch, version: current.version))
            }
            return (grown.rowCount(in: current.list), more)
        }
    }

    /// The `view=html` view of `grown` and the patch from `window`'s, rendering only the new rows.
    private func grownView(
        state: inout LiveChannel.State, channel: LiveChannel, from window: LiveWindow,
        to grown: LiveWindow
    ) -> (LiveView, JSONPatch) {
        let current = state.current
        let before =
            state.views[window]
            ?? LiveView(snapshot: current, window: window, renderer: renderer, rowMarkup: channel.rowMarkup)
        if let growth = LiveView.growing(
            before, from: window, to: grown, snapshot: current,
            renderer: renderer, rowMarkup: channel.rowMarkup)
        {
            return growth
        }
        let after = LiveView(snapshot: current, window: grown, renderer: renderer, rowMarkup: channel.rowMarkup)
        return (after, LiveView.patch(from: before, to: after))
    }
}
