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
        let started = monotonicNanoseconds()
        var jsonEvent: SharedBytes?
        var htmlEvents: [LiveWindow: SharedBytes] = [:]
        var newViews: [LiveWindow: LiveView] = [:]
        var jsonWindowEvents: [LiveWindow: SharedBytes] = [:]
        var newJSONViews: [LiveWindow: JSONWindowView] = [:]
        var deliveries: [Delivery] = []
        deliveries.reserveCapacity(state.subscribers.count)
        // Most `view=html` subscribers share one window: compared with the last one before hashing.
        var lastHTML: (window: LiveWindow, event: SharedBytes)?
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
                event = shared
            } else {
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
                    let window = subscriber.window
                    if let lastHTML, lastHTML.window == window {
                        event = lastHTML.event
                    } else if let shared = htmlEvents[window] {
                        event = shared
                    } else {
                        let before = state.currentView(window, renderer: renderer, rowMarkup: channel.rowMarkup)
                        let after = LiveView(snapshot: new, window: window, renderer: renderer, rowMarkup: channel.rowMarkup)
                        event = ServerSentEvent.patch(LiveView.patch(from: before, to: after), version: new.version)
                        htmlEvents[window] = event
                        newViews[window] = after
                    }
                    lastHTML = (window, event)
                }
            }
            // Sent below; one whose stream is too far behind is marked stale there, and a stale
            // subscriber's version is not read until its reset sets it.
            subscriber.version = new.version
            deliveries.append(Delivery(subscriber: subscriber, stream: subscriber.stream, event: event))
        }
        let made = monotonicNanoseconds()
        for subscriber in deliver(deliveries) { markStale(subscriber) }
        if deliveries.count >= Self.loggedFanOut {
            let sent = monotonicNanoseconds()
            Log.debug(
                "fan-out of \(channel.listID) version \(new.version): \(deliveries.count) events made in "
                    + "\(Self.milliseconds(made - started)) ms, sent in \(Self.milliseconds(sent - made)) ms")
        }
        state.recent.append(
            LiveChannel.PastVersion(
                snapshot: old, patchToNext: change.old?.version == old.version ? change.patch : nil))
        noteRowsWritten(change, from: old, to: new, state: &state)
        if state.recent.count > limits.recentVersions { state.recent.removeFirst() }
        state.current = new
        state.views = newViews
        state.jsonViews = newJSONViews
        channel.rowMarkup.forgetDeletedRows(keepingRowsOf: new.list)
        channel.resetDocuments.forget(before: new.version)
    }

    /// Publishes to at least this many subscribers log their timings (debug).
    static let loggedFanOut = 512

    /// Nanoseconds as milliseconds with two decimals.
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        let hundredths = (nanoseconds + 5_000) / 10_000
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }

    /// Deliveries from which a fan-out's sends are shared with the `fanOut` threads: fewer take
    /// less time than waking a thread.
    static let sharedFanOut = 1024

    /// Subscribers collected by several threads.
    private final class SubscriberList: Sendable {
        private let list = Mutex<[Subscriber]>([])
        func append(_ subscriber: Subscriber) { list.withLock { $0.append(subscriber) } }
        var subscribers: [Subscriber] { list.withLock { $0 } }
    }

    /// One subscriber's event of a publish, with its stream (read while the subscriber was, so
    /// that the sending threads need not read the subscriber again).
    package struct Delivery: @unchecked Sendable {
        package let subscriber: Subscriber
        package let stream: any SubscriberStream
        package let event: SharedBytes
    }

    /// Writes each event to its subscriber's stream, skipping one that holds more than
    /// `maxBufferedBytes` unsent, and returns those skipped. Called under the channel's lock.
    /// Each write is one `send` of the shared event on the calling thread
    /// (`SubscriberStream.write`; the server's `ResponseStream`), the floor of the work; from
    /// `sharedFanOut` deliveries on, the hub's `fanOut` threads share them.
    package func deliver(_ deliveries: [Delivery]) -> [Subscriber] {
        let behind = SubscriberList()
        let maxBuffered = limits.maxBufferedBytes
        let send: @Sendable (Int) -> Void = { index in
            let delivery = deliveries[index]
            if delivery.stream.write(delivery.event, ifQueuedAtMost: maxBuffered) == .behind {
                behind.append(delivery.subscriber)
            }
        }
        if deliveries.count >= Self.sharedFanOut {
            fanOut.run(deliveries.count, send)
        } else {
            for index in deliveries.indices { send(index) }
        }
        return behind.subscribers
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
