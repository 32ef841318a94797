import HTTPServer
import ListModel

extension LiveHub {
    /// Grows a `view=html` subscription's window by `extra` rows; the rows reach the client as
    /// `add` operations in its stream. Returns how many rows the window holds and whether
    /// more remain.
    /// - Throws: 404 for an unknown subscription of this list, 409 for a `view=json` one.
    func extend(subscription id: String, listID: String, by extra: Int) throws -> (rows: Int, more: Bool) {
        try state.withLock { state in
            guard state.listOfSubscription[id] == listID, let channel = state.channels[listID],
                  let subscriber = channel.subscribers[id] else {
                throw HTTPError(.notFound, "There is no open subscription \"\(id)\" on list \"\(listID)\".")
            }
            guard subscriber.view == .html else {
                throw HTTPError(.conflict, "Only view=html subscriptions have a window to extend.")
            }
            let current = channel.current
            let window = subscriber.window
            let grown = window.extended(by: extra, in: current.list)
            let before = channel.views[window]
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
            state.channels[listID]?.views[grown] = after
            subscriber.window = grown
            if !subscriber.stale && subscriber.version == current.version {
                subscriber.stream.write(ServerSentEvent.patch(patch, version: current.version))
            }
            return (grown.rowCount(in: current.list), after.more)
        }
    }

    /// Resets stale subscribers that have drained, disconnects those stale for too long, and
    /// drops channels that have had no subscriber for `idleChannelSeconds`.
    func sweepStaleSubscribers() {
        state.withLock { state in
            let now = monotonicNow()
            let idleLimit = UInt64(limits.idleChannelSeconds * 1e9)
            for (id, channel) in state.channels {
                if let idleSince = channel.idleSince, now - idleSince > idleLimit { state.channels[id] = nil }
            }
            guard state.staleCount > 0 else { return }
            for channel in state.channels.values {
                for subscriber in channel.subscribers.values where subscriber.stale {
                    if subscriber.stream.bufferedByteCount <= limits.maxBufferedBytes / 4 {
                        subscriber.stream.write(resetEvent(for: subscriber, at: channel.current, rowMarkup: channel.rowMarkup))
                        subscriber.version = channel.current.version
                        subscriber.stale = false
                        state.staleCount -= 1
                    } else if Double(now - subscriber.staleSince) / 1e9 > limits.staleTimeoutSeconds {
                        subscriber.stream.cancel()
                    }
                }
            }
        }
    }
}
