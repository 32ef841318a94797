import ListModel
import ListStore
import ServerSupport

extension LiveHub {
    /// What a `/events` request asked for.
    package struct SubscribeRequest: Sendable {
        package enum WindowSpec: Sendable {
            case limit(Int)
            case until(Cursor)
            /// A live view's window ending at this cursor of the view.
            case viewUntil(ViewCursor)
        }

        package let listID: String
        package let view: Subscriber.View
        package let window: WindowSpec
        /// The version the client already has (`since` or `Last-Event-ID`).
        package let since: Int?
        /// For a `view=json` resume: the store's change log after `since`, read by the caller
        /// (the hub never reads the store); nil when it was not read or no longer reaches back.
        package var logged: [StoredChange]? = nil
        /// The view asked for (`sort`, `q`, filters), validated against the list's columns; nil:
        /// the list itself.
        package var query: ListQuery? = nil
        /// For a live view: its index made beforehand, off the connection's thread
        /// (`LiveHub.prepareView(for:)`); nil: `attach` makes it.
        package var prepared: LiveHub.PreparedView? = nil

        package init(
            listID: String, view: Subscriber.View, window: WindowSpec, since: Int?, logged: [StoredChange]? = nil,
            query: ListQuery? = nil
        ) {
            self.query = query
            self.listID = listID
            self.view = view
            self.window = window
            self.since = since
            self.logged = logged
        }
    }

    /// Registers a stream and writes its first events: the subscription id, then a `reset`, or
    /// only the patches after `since` when the hub can resume from there. Runs when the stream
    /// starts; a list that is gone by then gets `event: deleted`.
    ///
    /// The first events are made under no lock, for the version the channel is at; the
    /// subscriber is then registered under the channel's lock. Writes that landed meanwhile
    /// are added to its first events there (`catchUp`), so no publish slips between its first
    /// events and its registration.
    /// - Parameter beforeRegistering: runs after the first events are made, before the
    ///   subscriber is registered (tests land writes there).
    package func attach(_ request: SubscribeRequest, to stream: any SubscriberStream, beforeRegistering: () -> Void = {}) {
        let id = SubscriptionID.make(prefix: limits.subscriptionPrefix)
        let reserved = directory.withLock { directory -> Bool in
            guard directory.subscriberCount < limits.maxSubscribers else { return false }
            directory.subscriberCount += 1
            return true
        }
        guard reserved else {
            stream.cancel()
            return
        }
        if let query = request.query {
            attachView(request, query: query, subscription: id, to: stream)
            return
        }
        while true {
            guard let channel = channel(for: request.listID) else { return endGone(stream) }
            guard
                let start = channel.state.withLock({ state in
                    publishPending(on: channel, state: &state)
                    return state.closed ? nil : startingPoint(of: request, state: state)
                })
            else { continue }
            let prepared = firstEvents(for: request, subscription: id, from: start, on: channel)
            beforeRegistering()
            let registered = channel.state.withLock { state -> Bool in
                publishPending(on: channel, state: &state)
                guard !state.closed else { return false }  // deleted or idle meanwhile: start over
                let events =
                    prepared.version == state.current.version
                    ? prepared
                    : catchUp(prepared, view: request.view, state: &state, rowMarkup: channel.rowMarkup)
                        ?? firstEvents(
                            for: request, subscription: id, from: startingPoint(of: request, state: state),
                            on: channel)
                register(
                    Subscriber(
                        id: id, listID: request.listID, view: request.view, stream: stream,
                        window: events.window, version: events.version),
                    with: events, on: channel, state: &state)
                return true
            }
            if registered { break }
        }
        stream.onTermination { [self] in detach(subscription: id) }
    }

    /// First events made for an older version, followed by what brings them to the channel's
    /// current one: the `view=json` patches of the writes since, or one `view=html` patch from
    /// the window's view then to its view now. Nil when the channel no longer keeps that
    /// version (or, for `view=html`, the events carry no view): make them again then.
    /// Called under the channel's lock.
    private func catchUp(
        _ prepared: FirstEvents, view: Subscriber.View, state: inout LiveChannel.State,
        rowMarkup: RowMarkupCache
    ) -> FirstEvents? {
        guard let start = state.recent.firstIndex(where: { $0.snapshot.version == prepared.version }) else { return nil }
        var caughtUp = FirstEvents(version: state.current.version, window: prepared.window, events: prepared.events)
        switch view {
        case .json:
            guard let steps = keptSteps(from: start, state: state) else { return nil }
            caughtUp.events += steps.map(\.event)
        case .html:
            guard let before = prepared.view else { return nil }
            let after = state.currentView(prepared.window, renderer: renderer, rowMarkup: rowMarkup)
            caughtUp.events.append(ServerSentEvent.patch(LiveView.patch(from: before, to: after), version: state.current.version))
            caughtUp.view = after
        case .jsonWindow:
            guard let before = prepared.jsonView else { return nil }
            let after = state.currentJSONView(prepared.window)
            caughtUp.events.append(
                ServerSentEvent.patch(
                    JSONWindowView.patch(from: before, to: after),
                    version: state.current.version))
            caughtUp.jsonView = after
        }
        return caughtUp
    }

    /// Writes a subscriber's first events and adds it to its channel. Called under the
    /// channel's lock, with first events that bring the client to the channel's current version.
    private func register(
        _ subscriber: Subscriber, with events: FirstEvents, on channel: LiveChannel,
        state: inout LiveChannel.State
    ) {
        let presence = join(subscriber, on: channel)
        subscriber.stream.write(
            [ServerSentEvent.subscription(subscriber.id, version: subscriber.version)]
                + events.events + [presence])
        if let view = events.view, state.views[subscriber.window] == nil { state.views[subscriber.window] = view }
        if let view = events.jsonView, state.jsonViews[subscriber.window] == nil { state.jsonViews[subscriber.window] = view }
        state.subscribers[subscriber.id] = subscriber
        state.idleSince = nil
    }

    /// Removes a subscriber whose stream ended; the channel stays a while for resumes.
    package func detach(subscription id: String) {
        guard let channel = directory.withLock({ $0.channelOfSubscription[id] }) else { return }
        channel.state.withLock { state in
            guard let subscriber = state.subscribers.removeValue(forKey: id) else { return }
            directory.withLock { forget(subscriber, directory: &$0) }
            if state.subscribers.isEmpty { state.idleSince = monotonicNanoseconds() }
        }
    }

    /// Ends a stream being set up for a list that is gone meanwhile: its reserved slot is given
    /// back, and it gets `event: deleted` before it ends.
    func endGone(_ stream: any SubscriberStream) {
        directory.withLock { $0.subscriberCount -= 1 }
        stream.write(ServerSentEvent.deleted(version: 0))
        stream.finish()
    }
}
