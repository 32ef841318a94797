import Dispatch
import ListModel
import ServerSupport
import Synchronization

extension LiveHub {
    /// Sends one committed change to the list's subscribers. Called under the channel's lock
    /// (by `publishPending`), so changes go out in the order received: version order. Other
    /// lists go on meanwhile.
    package func publish(_ change: ListChange, on channel: LiveChannel, state: inout LiveChannel.State) {
        guard !state.closed else { return }  // left the hub meanwhile; a new one starts at the newest snapshot
        guard let new = change.new else {
            // A list created again under this id may have reached the channel first: its
            // streams go on.
            if let old = change.old, old.version < state.current.version { return }
            close(channel, deletedAt: (change.old?.version ?? state.current.version) + 1, state: &state)
            return
        }
        let old = state.current
        guard new.version > old.version else { return }  // a subscriber already started from it
        var jsonEvent: SharedBytes?
        var htmlEvents: [LiveWindow: SharedBytes] = [:]
        var newViews: [LiveWindow: LiveView] = [:]
        var jsonWindowEvents: [LiveWindow: SharedBytes] = [:]
        var newJSONViews: [LiveWindow: JSONWindowView] = [:]
        var deliveries: [Delivery] = []
        deliveries.reserveCapacity(state.subscribers.count)
        let viewEvents = publishViews(change, from: old, to: new, state: &state, channel: channel)
        for subscriber in state.subscribers.values where !subscriber.stale && subscriber.version < new.version {
            guard subscriber.version == old.version else {
                markStale(subscriber)
                continue
            }
            let event: SharedBytes
            if let query = subscriber.query {
                let key = LiveViewKey(query: query, window: LiveQueryView.Key(view: subscriber.view, end: subscriber.viewEnd))
                guard let shared = viewEvents[key] else {
                    markStale(subscriber)  // cannot happen: every subscribed window got its event
                    continue
                }
                deliveries.append(Delivery(subscriber: subscriber, event: shared))
                continue
            }
            switch subscriber.view {
            case .json:
                if jsonEvent == nil { jsonEvent = Self.jsonEvent(for: change, from: old, to: new) }
                event = jsonEvent!
            case .jsonWindow:
                if let shared = jsonWindowEvents[subscriber.window] {
                    event = shared
                } else {
                    let after = JSONWindowView(snapshot: new, window: subscriber.window)
                    event = ServerSentEvent.patch(
                        JSONWindowView.patch(from: state.currentJSONView(subscriber.window), to: after),
                        version: new.version)
                    jsonWindowEvents[subscriber.window] = event
                    newJSONViews[subscriber.window] = after
                }
            case .html:
                if let shared = htmlEvents[subscriber.window] {
                    event = shared
                } else {
                    let before = state.currentView(subscriber.window, renderer: renderer, rowMarkup: channel.rowMarkup)
                    let after = LiveView(
                        snapshot: new, window: subscriber.window, renderer: renderer,
                        rowMarkup: channel.rowMarkup)
                    event = ServerSentEvent.patch(LiveView.patch(from: before, to: after), version: new.version)
                    htmlEvents[subscriber.window] = event
                    newViews[subscriber.window] = after
                }
            }
            deliveries.append(Delivery(subscriber: subscriber, event: event))
        }
        for subscriber in deliver(deliveries, at: new.version) { markStale(subscriber) }
        state.recent.append(
            LiveChannel.PastVersion(
                snapshot: old, patchToNext: change.old?.version == old.version ? change.patch : nil))
        if state.recent.count > limits.recentVersions { state.recent.removeFirst() }
        state.current = new
        state.views = newViews
        state.jsonViews = newJSONViews
        channel.rowMarkup.forgetDeletedRows(keepingRowsOf: new.list)
        channel.resetDocuments.forget(before: new.version)
    }

    /// One subscriber's event of a publish.
    package struct Delivery: @unchecked Sendable {
        package let subscriber: Subscriber
        package let event: SharedBytes
    }

    /// Writes each event to its subscriber's stream (skipping one that holds more than
    /// `maxBufferedBytes` unsent) and moves it to `version` (nil: an event that is not a
    /// version, `presence`); returns those skipped.
    /// Called under the channel's lock. Large fan-outs are spread over the cores: each write is
    /// one `send` of the shared event on the caller's thread (`SubscriberStream.write`; the
    /// server's `ResponseStream`), the floor of the work, so the threads share it evenly.
    package func deliver(_ deliveries: [Delivery], at version: Int?) -> [Subscriber] {
        let workers = min(limits.fanOutThreads, max(1, deliveries.count / 512))
        let behind = Mutex<[Subscriber]>([])
        let maxBuffered = limits.maxBufferedBytes
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var slow: [Subscriber] = []
            var index = worker
            while index < deliveries.count {
                let delivery = deliveries[index]
                if delivery.subscriber.stream.write(delivery.event, ifQueuedAtMost: maxBuffered) == .behind {
                    slow.append(delivery.subscriber)
                }
                index += workers
            }
            if !slow.isEmpty { behind.withLock { $0 += slow } }
        }
        let skipped = behind.withLock { $0 }
        guard let version else { return skipped }
        let skippedIDs = Set(skipped.map { ObjectIdentifier($0) })
        for delivery in deliveries where !skippedIDs.contains(ObjectIdentifier(delivery.subscriber)) {
            delivery.subscriber.version = version
        }
        return skipped
    }

    /// The `view=json` event taking a subscriber at `old` to `new`: the change's patch, or the
    /// whole document when the change did not start from `old` (a list created again).
    package static func jsonEvent(for change: ListChange, from old: ListSnapshot, to new: ListSnapshot) -> SharedBytes {
        if change.old?.version == old.version { return ServerSentEvent.patch(change.patch, version: new.version) }
        var data = Array(#"[{"op":"replace","path":"","value":"#.utf8)
        data += new.documentJSON
        data += Array("}]".utf8)
        return ServerSentEvent.patch(serialized: data, version: new.version)
    }

    /// The list is gone: every subscriber gets `event: deleted`, its stream ends, and the
    /// channel leaves the hub. Called under the channel's lock.
    package func close(_ channel: LiveChannel, deletedAt version: Int, state: inout LiveChannel.State) {
        state.closed = true
        let event = ServerSentEvent.deleted(version: version)
        let subscribers = state.subscribers.values
        state.subscribers = [:]
        for subscriber in subscribers {
            subscriber.stream.write(event)
            subscriber.stream.finish()
        }
        directory.withLock { directory in
            if directory.channels[channel.listID] === channel { directory.channels[channel.listID] = nil }
            for subscriber in subscribers { forget(subscriber, directory: &directory) }
        }
    }

    /// Stops sending patches to a subscriber until the sweeper resets it. Called under its
    /// channel's lock.
    package func markStale(_ subscriber: Subscriber) {
        guard !subscriber.stale else { return }
        subscriber.stale = true
        subscriber.staleSince = monotonicNanoseconds()
        directory.withLock { $0.staleCount += 1 }
    }

    /// Drops a subscriber, already taken out of its channel, from the books.
    package func forget(_ subscriber: Subscriber, directory: inout Directory) {
        guard directory.channelOfSubscription.removeValue(forKey: subscriber.id) != nil else { return }
        directory.subscriberCount -= 1
        if let viewers = directory.viewers[subscriber.listID], viewers > 1 {
            directory.viewers[subscriber.listID] = viewers - 1
        } else {
            directory.viewers[subscriber.listID] = nil
        }
        if subscriber.stale { directory.staleCount -= 1 }
    }
}
