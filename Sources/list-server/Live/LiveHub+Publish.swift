import Dispatch
import HTTPServer
import ListModel

extension LiveHub {
    /// Sends one accepted write to the list's subscribers. Called by the registry under the
    /// list's write lock, so changes arrive here in version order.
    func publish(_ change: ListChange) {
        state.withLock { state in
            guard var channel = state.channels[change.id] else { return }
            guard let new = change.new else {
                // A list created again under this id may have reached the hub first (its writes
                // hold the new list's lock, not the deleted one's): its streams go on.
                if let old = change.old, old.version < channel.current.version { return }
                endChannel(change.id, version: (change.old?.version ?? channel.current.version) + 1, state: &state)
                return
            }
            let old = channel.current
            guard new.version > old.version else { return }  // a subscriber already started from it
            var jsonEvent: [UInt8]?
            var htmlEvents: [LiveWindow: [UInt8]] = [:]
            var newViews: [LiveWindow: LiveView] = [:]
            for subscriber in channel.subscribers.values where !subscriber.stale && subscriber.version < new.version {
                guard subscriber.version == old.version, subscriber.stream.bufferedByteCount <= limits.maxBufferedBytes else {
                    markStale(subscriber, state: &state)
                    continue
                }
                let event: [UInt8]
                switch subscriber.view {
                case .json:
                    if jsonEvent == nil { jsonEvent = ServerSentEvent.patch(change.patch, version: new.version) }
                    event = jsonEvent!
                case .html:
                    if let shared = htmlEvents[subscriber.window] {
                        event = shared
                    } else {
                        let before = channel.currentView(subscriber.window, renderer: renderer)
                        let after = LiveView(snapshot: new, window: subscriber.window, renderer: renderer,
                                             rowMarkup: channel.rowMarkup)
                        event = ServerSentEvent.patch(LiveView.patch(from: before, to: after), version: new.version)
                        htmlEvents[subscriber.window] = event
                        newViews[subscriber.window] = after
                    }
                }
                subscriber.stream.write(event)
                subscriber.version = new.version
            }
            channel.recent.append(old)
            if channel.recent.count > limits.recentVersions { channel.recent.removeFirst() }
            channel.current = new
            channel.views = newViews
            channel.rowMarkup.forgetDeletedRows(keepingRowsOf: new.list)
            state.channels[change.id] = channel
        }
    }

    /// The list is gone: every subscriber gets `event: deleted` and its stream ends.
    func endChannel(_ id: String, version: Int, state: inout State) {
        guard let channel = state.channels.removeValue(forKey: id) else { return }
        let event = ServerSentEvent.deleted(version: version)
        for subscriber in channel.subscribers.values {
            subscriber.stream.write(event)
            subscriber.stream.finish()
            forget(subscriber, state: &state)
        }
    }

    func markStale(_ subscriber: Subscriber, state: inout State) {
        guard !subscriber.stale else { return }
        subscriber.stale = true
        subscriber.staleSince = monotonicNow()
        state.staleCount += 1
    }

    /// Drops a subscriber from the books (its channel entry is the caller's to remove).
    func forget(_ subscriber: Subscriber, state: inout State) {
        guard state.listOfSubscription.removeValue(forKey: subscriber.id) != nil else { return }
        state.subscriberCount -= 1
        if subscriber.stale { state.staleCount -= 1 }
    }
}

/// Monotonic time in nanoseconds.
func monotonicNow() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
