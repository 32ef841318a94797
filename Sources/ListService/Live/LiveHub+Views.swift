import ListModel
import ServerSupport

// Live views (API.md section 9 "Live", docs/LIVE.md "Live views"): `/events` with `sort`, `q` or
// filters. Each channel keeps up to `maxViews` `LiveQueryView`s, updated by every published change
// from the rows it touched; their subscribers start, resume, grow and get resets under the
// channel's lock (a view is built there once, then kept).

extension LiveHub {
    /// The identity of one shared event of a publish: a window of a view as one kind of stream sees it.
    package struct LiveViewKey: Hashable {
        let query: ListQuery
        let window: LiveQueryView.Key
    }

    /// Whether a stream of `query` on `listID` can start now: the view exists, or there is room
    /// for it (fewer than `maxViews`, or one without subscribers to drop). Routes answer 503 otherwise.
    package func hasRoom(forView query: ListQuery, of listID: String) -> Bool {
        guard let channel = channel(for: listID) else { return true }  // the stream will say `deleted`
        return channel.state.withLock { state in
            state.queryViews[query] != nil || state.queryViews.count < limits.maxViews
                || state.queryViews.keys.contains { candidate in !state.subscribers.values.contains { $0.query == candidate } }
        }
    }

    /// Starts a live view's stream: under the channel's lock (the view's index is the
    /// channel's, kept at its current version), but with the views it needs built before
    /// (`prepareView`): a large list's view takes up to a second to sort, and the lock holds up
    /// every stream of the list. Writes that land meanwhile are brought into the view's index
    /// from the rows they touched; after one that does not name them, it is made again (twice at
    /// most, then built under the lock).
    func attachView(_ request: SubscribeRequest, query: ListQuery, subscription id: String, to stream: any SubscriberStream) {
        var attempts = 0
        while true {
            guard let channel = channel(for: request.listID) else { return endGone(stream) }
            // The route's preparation first; then the hub's own, twice at most.
            let prepared =
                (attempts == 0 ? request.prepared : nil)
                ?? (attempts < 3 ? prepareView(query, since: request.since, on: channel) : PreparedView())
            attempts += 1
            let outcome = channel.state.withLock { state -> Bool? in
                publishPending(on: channel, state: &state)
                if state.closed { return nil }
                let ready = prepared.index(at: &state)
                // Writes came meanwhile that do not name their rows: made again.
                if ready == nil && prepared.index != nil && state.queryViews[query] == nil && attempts < 3 { return nil }
                guard var live = openView(query, state: &state, prepared: ready) else { return false }
                let current = state.current
                let base = request.since.flatMap { since in state.recent.first { $0.snapshot.version == since }?.snapshot }
                // A window named by a row count counts the rows the client holds: at its version.
                let baseIndex = base.flatMap { base in
                    prepared.base.flatMap { $0.cache === base.cache ? $0.index : nil } ?? (try? ViewIndex(list: base.list, query: query))
                }
                let end: ViewWindowEnd
                switch request.window {
                case .limit(let limit):
                    end = request.view == .json ? .whole : (baseIndex ?? live.index).windowEnd(limit: limit)
                case .viewUntil(let cursor): end = .through(cursor)
                case .until: end = .empty  // refused by the route
                }
                let key = LiveQueryView.Key(view: request.view, end: end)
                let document =
                    live.documents[key]
                    ?? ViewDocument.make(key, index: live.index, listID: channel.listID, renderer: renderer, rowMarkup: channel.rowMarkup)
                var events: [SharedBytes] = []
                if request.since == current.version {
                    // Up to date: nothing to send.
                } else if let baseIndex {
                    var patch = ViewDocument.patch(
                        from: ViewDocument.make(
                            key, index: baseIndex, listID: channel.listID, renderer: renderer, rowMarkup: channel.rowMarkup),
                        to: document)
                    if end != .whole, case .json(let view) = document { Self.statingUntil(&patch, view.until) }
                    if case .html(let view) = document { Self.statingUntil(&patch, view.until) }
                    events = [ServerSentEvent.patch(patch, version: current.version)]
                } else {
                    events = viewReset(subscription: id, key: key, document: document, live: &live, version: current.version)
                }
                live.documents[key] = document
                state.queryViews[query] = live
                let subscriber = Subscriber(
                    id: id, listID: request.listID, view: request.view, stream: stream,
                    window: .empty, version: current.version, query: query, viewEnd: end)
                let presence = join(subscriber, on: channel)
                stream.write([ServerSentEvent.subscription(id, version: current.version)] + events + [presence])
                state.subscribers[id] = subscriber
                state.idleSince = nil
                return true
            }
            switch outcome {
            case nil: continue  // the channel closed meanwhile, or a write came: start over
            case false?:
                // Every view has subscribers (the route checked, but others came first), or the
                // query no longer fits the list: the stream ends; a new request gets 503 or 400.
                directory.withLock { $0.subscriberCount -= 1 }
                stream.finish()
                return
            case true?:
                stream.onTermination { [self] in detach(subscription: id) }
                return
            }
        }
    }

    /// A `reset` of a live view's window at the current version; its document is serialized
    /// once per version and window.
    private func viewReset(
        subscription id: String, key: LiveQueryView.Key, document: ViewDocument,
        live: inout LiveQueryView, version: Int
    ) -> [SharedBytes] {
        let bytes: SharedBytes
        if let made = live.resets[key] {
            bytes = made
        } else {
            bytes = SharedBytes(document.json.serialized())
            live.resets[key] = bytes
        }
        return ServerSentEvent.reset(version: version, subscription: id, document: bytes)
    }

    /// A stale live-view subscriber's reset at the channel's current version. Under its lock.
    func viewReset(for subscriber: Subscriber, state: inout LiveChannel.State, channel: LiveChannel) -> [SharedBytes]? {
        guard let query = subscriber.query, var live = state.queryViews[query] else { return nil }
        let key = LiveQueryView.Key(view: subscriber.view, end: subscriber.viewEnd)
        let document =
            live.documents[key]
            ?? ViewDocument.make(key, index: live.index, listID: channel.listID, renderer: renderer, rowMarkup: channel.rowMarkup)
        live.documents[key] = document
        let events = viewReset(
            subscription: subscriber.id, key: key, document: document, live: &live,
            version: state.current.version)
        state.queryViews[query] = live
        return events
    }

    /// Brings every live view of the channel from `old` to `new` and makes one patch event per
    /// subscribed window (the subscribers of one window share it). A view is updated from the
    /// rows the change touched (O(log n) each); a change that does not name them, or changes
    /// the columns, rebuilds it (or drops it when it has no subscriber). Views whose query no longer fits the columns are dropped and
    /// their streams end. Called under the channel's lock by `publish`.
    func publishViews(
        _ change: ListChange, from old: ListSnapshot, to new: ListSnapshot,
        state: inout LiveChannel.State, channel: LiveChannel
    ) -> [LiveViewKey: SharedBytes] {
        guard !state.queryViews.isEmpty else { return [:] }
        var wanted: [ListQuery: Set<LiveQueryView.Key>] = [:]
        for subscriber in state.subscribers.values where !subscriber.stale && subscriber.version == old.version {
            guard let query = subscriber.query else { continue }
            wanted[query, default: []].insert(LiveQueryView.Key(view: subscriber.view, end: subscriber.viewEnd))
        }
        let touchedRows = change.rowsToFollow(from: old, to: new)
        var events: [LiveViewKey: SharedBytes] = [:]
        var unfit: Set<ListQuery> = []
        for query in Array(state.queryViews.keys) {
            // Taken out while it changes, put back at the end: a copy mutated while the
            // dictionary still held the index copied its chunk list and every chunk it touched
            // (thousands of retains a view, each write).
            var live = state.queryViews.removeValue(forKey: query)!
            let keys = wanted[query] ?? []
            var before: [LiveQueryView.Key: ViewDocument] = [:]
            for key in keys {
                before[key] =
                    live.documents[key]
                    ?? ViewDocument.make(key, index: live.index, listID: channel.listID, renderer: renderer, rowMarkup: channel.rowMarkup)
            }
            // Row-only writes (keyed row edits) update each window from the rows they touched.
            var rowsOnly: (update: ViewUpdate, oldPlaces: [ByteKey: (sectionKey: String, index: Int)], oldRowCount: Int)?
            if touchedRows == nil && keys.isEmpty && !state.subscribers.values.contains(where: { $0.query == query }) {
                // A view nobody watches is not rebuilt for every whole-document write: it is
                // built again when a subscriber comes.
                continue
            }
            if let touched = touchedRows {
                var oldPlaces: [ByteKey: (sectionKey: String, index: Int)] = [:]
                if !keys.isEmpty && change.patch.operations.allSatisfy(\.touchesRowsOnly) {
                    for rowKey in touched { oldPlaces[ByteKey(rowKey)] = live.index.location(ofRow: rowKey) }
                }
                let oldRowCount = live.index.rowCount
                let update = live.index.update(to: new.list, touching: touched)
                if !keys.isEmpty && change.patch.operations.allSatisfy(\.touchesRowsOnly) {
                    rowsOnly = (update, oldPlaces, oldRowCount)
                }
            } else if let rebuilt = try? ViewIndex(list: new.list, query: query) {
                live.index = rebuilt
            } else {
                unfit.insert(query)
                continue
            }
            var documents: [LiveQueryView.Key: ViewDocument] = [:]
            for key in keys {
                let after: ViewDocument
                let patch: JSONPatch
                if let rowsOnly,
                    let made = ViewDocument.incremental(
                        from: before[key]!, key: key, update: rowsOnly.update, oldPlaces: rowsOnly.oldPlaces,
                        oldRowCount: rowsOnly.oldRowCount, index: live.index, renderer: renderer, rowMarkup: channel.rowMarkup)
                {
                    (after, patch) = made
                    incrementalViewPatches.add(1, ordering: .relaxed)
                } else {
                    diffedViewPatches.add(1, ordering: .relaxed)
                    after = ViewDocument.make(
                        key, index: live.index, listID: channel.listID, renderer: renderer, rowMarkup: channel.rowMarkup)
                    patch = ViewDocument.patch(from: before[key]!, to: after)
                }
                events[LiveViewKey(query: query, window: key)] = ServerSentEvent.patch(patch, version: new.version)
                documents[key] = after
            }
            live.documents = documents
            live.resets = [:]
            state.queryViews[query] = live
        }
        if !unfit.isEmpty {
            let ended = state.subscribers.values.filter { $0.query.map(unfit.contains) ?? false }
            for subscriber in ended {
                state.subscribers[subscriber.id] = nil
                subscriber.stream.finish()
            }
            directory.withLock { directory in for subscriber in ended { forget(subscriber, directory: &directory) } }
            if state.subscribers.isEmpty { state.idleSince = monotonicNanoseconds() }
        }
        return events
    }

    /// Grows a live view subscriber's window by `extra` rows of the view. Under the channel's lock.
    func extendView(
        _ subscriber: Subscriber, by extra: Int, state: inout LiveChannel.State,
        channel: LiveChannel
    ) throws -> (rows: Int, more: Bool) {
        guard subscriber.viewEnd != .whole else { throw SubscriptionError.noWindow }
        guard let query = subscriber.query, var live = state.queryViews[query] else {
            throw SubscriptionError.unknown(id: subscriber.id, listID: subscriber.listID)
        }
        let key = LiveQueryView.Key(view: subscriber.view, end: subscriber.viewEnd)
        let before =
            live.documents[key]
            ?? ViewDocument.make(key, index: live.index, listID: channel.listID, renderer: renderer, rowMarkup: channel.rowMarkup)
        let held = live.index.window(subscriber.viewEnd).rowCount
        var grown = live.index.windowEnd(limit: held + extra)
        if grown == .empty { grown = subscriber.viewEnd }
        let grownKey = LiveQueryView.Key(view: subscriber.view, end: grown)
        let after =
            live.documents[grownKey]
            ?? ViewDocument.make(grownKey, index: live.index, listID: channel.listID, renderer: renderer, rowMarkup: channel.rowMarkup)
        live.documents[grownKey] = after
        state.queryViews[query] = live
        subscriber.viewEnd = grown
        if !subscriber.stale && subscriber.version == state.current.version {
            subscriber.stream.write(
                ServerSentEvent.patch(
                    ViewDocument.patch(from: before, to: after),
                    version: state.current.version))
        }
        return (live.index.window(grown).rowCount, after.rowsAndMore.more)
    }
}
