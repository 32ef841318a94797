import HTTPServer
import ListModel

extension LiveHub {
    /// What a `/events` request asked for.
    struct SubscribeRequest: Sendable {
        enum WindowSpec: Sendable {
            case limit(Int)
            case until(Cursor)
        }

        let listID: String
        let view: Subscriber.View
        let window: WindowSpec
        /// The version the client already has (`since` or `Last-Event-ID`).
        let since: Int?
    }

    /// Registers a stream and writes its first events: the subscription id, then a `reset`, or
    /// only the patches after `since` when the hub can resume from there. Runs when the stream
    /// starts; a list that is gone by then gets `event: deleted`.
    func attach(_ request: SubscribeRequest, to stream: ResponseStream) {
        let id = SubscriptionID.make()
        let attached = state.withLock { state -> Bool in
            guard state.subscriberCount < limits.maxSubscribers else { return false }
            // Taken out of the table while it changes, so that adding a subscriber does not
            // copy the channel's other subscribers.
            var channel: Channel
            if let existing = state.channels.removeValue(forKey: request.listID) {
                channel = existing
            } else if let snapshot = registrySnapshot(request.listID) {
                channel = Channel(current: snapshot)
            } else {
                stream.write(ServerSentEvent.deleted(version: 0))
                stream.finish()
                return true
            }
            let current = channel.current
            let base = request.since.flatMap { since in channel.recent.first { $0.version == since } }
            let window: LiveWindow
            switch request.window {
            case .limit(let limit): window = LiveWindow(limit: limit, in: (base ?? current).list)
            case .until(let cursor): window = .through(cursor)
            }
            let subscriber = Subscriber(id: id, listID: request.listID, view: request.view, stream: stream,
                                        window: window, version: current.version)
            stream.write(ServerSentEvent.retry(milliseconds: 1_000))
            stream.write(ServerSentEvent.encode(
                "subscription", id: nil,
                data: JSONValue.object(JSONObject([("subscription", .string(id)), ("version", .number(Double(current.version)))])).serialized()))
            for event in firstEvents(for: subscriber, request: request, current: current, base: base,
                                     rowMarkup: channel.rowMarkup) {
                stream.write(event)
            }
            channel.subscribers[id] = subscriber
            channel.idleSince = nil
            state.channels[request.listID] = channel
            state.listOfSubscription[id] = request.listID
            state.subscriberCount += 1
            return true
        }
        guard attached else {
            stream.cancel()
            return
        }
        stream.onTermination { [self] in detach(subscription: id) }
    }

    /// The reset, or the patches that bring a client at `since` to `current`.
    private func firstEvents(for subscriber: Subscriber, request: SubscribeRequest, current: ListSnapshot,
                             base: ListSnapshot?, rowMarkup: RowMarkupCache) -> [[UInt8]] {
        if let since = request.since, since == current.version { return [] }
        switch subscriber.view {
        case .json:
            if let since = request.since, since < current.version,
               let changes = storedChanges(of: request.listID, after: since)?.filter({ $0.version <= current.version }),
               changes.first?.version == since + 1, changes.last?.version == current.version {
                return changes.map { ServerSentEvent.patch(serialized: $0.patch, version: $0.version) }
            }
            return [resetEvent(for: subscriber, at: current, rowMarkup: rowMarkup)]
        case .html:
            if let base {
                let view = LiveView(snapshot: current, window: subscriber.window, renderer: renderer, rowMarkup: rowMarkup)
                var patch = LiveView.patch(
                    from: LiveView(snapshot: base, window: subscriber.window, renderer: renderer, rowMarkup: rowMarkup),
                    to: view)
                // The client may have named its window by row count (`limit=`): its `until` can
                // differ from the window's, so the first patch always states it.
                let until = JSONPointer(tokens: ["until"])
                if !patch.operations.contains(where: { $0.path == until || $0.path == .root }) {
                    patch.operations.append(.replace(path: until, value: view.until.map(JSONValue.string) ?? .null))
                }
                return [ServerSentEvent.patch(patch, version: current.version)]
            }
            return [resetEvent(for: subscriber, at: current, rowMarkup: rowMarkup)]
        }
    }

    /// A `reset` for this subscriber's view at `snapshot`; `rowMarkup` is its channel's cache of
    /// rendered rows, so a reset renders only rows no view has rendered yet.
    func resetEvent(for subscriber: Subscriber, at snapshot: ListSnapshot, rowMarkup: RowMarkupCache) -> [UInt8] {
        switch subscriber.view {
        case .json:
            return ServerSentEvent.reset(version: snapshot.version, subscription: subscriber.id,
                                         serializedDocument: snapshot.documentJSON)
        case .html:
            let view = LiveView(snapshot: snapshot, window: subscriber.window, renderer: renderer, rowMarkup: rowMarkup)
            return ServerSentEvent.reset(version: snapshot.version, subscription: subscriber.id, document: view.json)
        }
    }

    /// Removes a subscriber whose stream ended; the channel stays a while for resumes.
    func detach(subscription id: String) {
        state.withLock { state in
            guard let listID = state.listOfSubscription[id],
                  let subscriber = state.channels[listID]?.subscribers.removeValue(forKey: id) else { return }
            forget(subscriber, state: &state)
            if state.channels[listID]?.subscribers.isEmpty == true { state.channels[listID]?.idleSince = monotonicNow() }
        }
    }
}
