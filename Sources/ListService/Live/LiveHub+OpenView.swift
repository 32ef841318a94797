import ListModel
import ServerSupport
import Synchronization

// Opening a live view (`attachView`): its index is built before the channel's lock is taken
// (`prepareView`), and kept under it (`openView`).

extension LiveHub {
    /// The indexes a new live view subscriber needs, made outside the channel's lock: the view's
    /// at the channel's current version when the channel has no such view yet, and the one at
    /// the version a resuming client names. Each names the snapshot it was made from.
    package struct PreparedView: Sendable {
        /// The cache of the snapshot that was current when these were made (its identity).
        var current: SnapshotCache?
        /// The view's index at that snapshot; nil when the channel had the view (or the query
        /// does not fit the list).
        var index: ViewIndex?
        var base: (cache: SnapshotCache, index: ViewIndex)?

        /// The number of its record of the rows written since (`LiveChannel.State.rowsWritten`).
        var preparation: Int?

        /// The view's index at `state`'s current version: as made, when made at it; else brought
        /// there from the rows written since (O(log n) a row), when every write named them. Nil
        /// otherwise. Takes the preparation's record out of `state`.
        func index(at state: inout LiveChannel.State) -> ViewIndex? {
            let written = preparation.flatMap { state.rowsWritten.removeValue(forKey: $0) }
            guard var index, let current else { return nil }
            if current === state.current.cache { return index }
            guard let written, written.from === current, let rows = written.rows else { return nil }
            _ = index.update(to: state.current.list, touching: rows)
            return index
        }
    }

    /// Notes the rows `change` (from `old` to `new`) wrote in every record of a preparation, and
    /// drops records older than a minute (a stream that never started). Under the channel's lock.
    func noteRowsWritten(_ change: ListChange, from old: ListSnapshot, to new: ListSnapshot, state: inout LiveChannel.State) {
        guard !state.rowsWritten.isEmpty else { return }
        let rows = change.rowsToFollow(from: old, to: new)
        let now = monotonicNanoseconds()
        for number in Array(state.rowsWritten.keys) {
            if now &- state.rowsWritten[number]!.started > 60_000_000_000 {
                state.rowsWritten[number] = nil
            } else {
                state.rowsWritten[number]!.add(rows)
            }
        }
    }

    /// Numbers preparations, across channels (a request prepared on a channel that then closed
    /// names no record of its successor's).
    private static let preparations = Atomic<Int>(0)

    /// `PreparedView` for a subscriber of `query` on `channel` (resuming from `since`), built
    /// without holding the channel's lock (`viewIndex`).
    func prepareView(_ query: ListQuery, since: Int?, on channel: LiveChannel) -> PreparedView {
        let (current, hasView, base, preparation) = channel.state.withLock { state in
            publishPending(on: channel, state: &state)
            let base = since.flatMap { since in state.recent.first { $0.snapshot.version == since }?.snapshot }
            let hasView = state.queryViews[query] != nil
            var preparation: Int?
            if !hasView {
                let number = Self.preparations.add(1, ordering: .relaxed).newValue
                state.rowsWritten[number] = LiveChannel.RowsWritten(from: state.current.cache, started: monotonicNanoseconds())
                preparation = number
            }
            return (state.current, hasView, base, preparation)
        }
        var prepared = PreparedView(current: current.cache, preparation: preparation)
        if !hasView { prepared.index = Self.viewIndex(of: query, at: current) }
        if let base, let index = try? ViewIndex(list: base.list, query: query) { prepared.base = (base.cache, index) }
        return prepared
    }

    /// The index of `snapshot` seen through `query`: from the snapshot's view when a page read
    /// built it or is building it (one sort, not two), else from a view of its own, not kept
    /// there (the index holds what it needs). Nil when the query does not fit the list.
    static func viewIndex(of query: ListQuery, at snapshot: ListSnapshot) -> ViewIndex? {
        (try? snapshot.cache.builtView(query) ?? snapshot.list.view(query)).map(ViewIndex.init(view:))
    }

    /// `PreparedView` for `request` (a live view's), made on the caller's thread: a route makes
    /// it off the connection's thread for a large list (`hasLiveView` false) and passes it in
    /// the request to `attach`. Nil for a request of the list itself, or of a list not there.
    package func prepareView(for request: SubscribeRequest) -> PreparedView? {
        guard let query = request.query, let channel = channel(for: request.listID) else { return nil }
        return prepareView(query, since: request.since, on: channel)
    }

    /// Whether `listID`'s channel has the live view of `query` (opening a stream of it is then cheap).
    package func hasLiveView(_ query: ListQuery, of listID: String) -> Bool {
        guard let channel = directory.withLock({ $0.channels[listID] }) else { return false }
        return channel.state.withLock { $0.queryViews[query] != nil }
    }

    /// The view of `query` in `state`: the channel's, or a new one from `prepared` (brought to
    /// `state`'s current version, `PreparedView.index(at:)`; else built here), dropping the least recently used view without
    /// subscribers beyond `maxViews`. Nil when every view has subscribers, or the query no
    /// longer fits the list's columns.
    func openView(
        _ query: ListQuery, state: inout LiveChannel.State, prepared: ViewIndex?
    ) -> LiveQueryView? {
        let now = monotonicNanoseconds()
        if var live = state.queryViews[query] {
            live.lastUsed = now
            state.queryViews[query] = live
            return live
        }
        if state.queryViews.count >= limits.maxViews {
            let subscribed = Set(state.subscribers.values.compactMap(\.query))
            guard let victim = state.queryViews.filter({ !subscribed.contains($0.key) }).min(by: { $0.value.lastUsed < $1.value.lastUsed })
            else { return nil }
            state.queryViews[victim.key] = nil
        }
        guard let index = prepared ?? Self.viewIndex(of: query, at: state.current) else { return nil }
        let live = LiveQueryView(index: index, lastUsed: now)
        state.queryViews[query] = live
        return live
    }
}
