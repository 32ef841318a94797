import HTMLRenderer
import ListModel
import Synchronization

/// One watched list: the version its subscribers are at, who they are, and what the hub keeps
/// to serve them. Everything in `state` is guarded by the channel's own lock, so work for one
/// list never waits for another list's (docs/LIVE.md, "Locking and cost").
///
/// Committed changes arrive in `inbox` (a leaf lock, so the registry's writer never waits for
/// fan-out) and are published under `state`'s lock by whoever takes it next: the hub's drain,
/// a new subscriber, `…/more` or the sweeper (`LiveHub.publishPending`).
package final class LiveChannel: Sendable {
    package struct State {
        package var current: ListSnapshot
        package var subscribers: [String: Subscriber] = [:]
        /// The versions before `current`, oldest first, for resuming `view=html` streams and
        /// bringing a new subscriber from the version its first events were made for.
        package var recent: [PastVersion] = []
        /// When the last subscriber left (monotonic nanoseconds); the channel is kept for
        /// `idleChannelSeconds` so that a lone client that reconnects can still resume.
        package var idleSince: UInt64?
        /// The view of each subscribed window at `current`, so a write renders each once.
        package var views: [LiveWindow: LiveView] = [:]
        /// The windowed `view=json` document of each subscribed window at `current`.
        package var jsonViews: [LiveWindow: JSONWindowView] = [:]
        /// The live views of the list (`sort`, `q`, filters) at `current`, by query: at most
        /// `Limits.maxViews` (docs/LIVE.md, "Live views").
        package var queryViews: [ListQuery: LiveQueryView] = [:]
        /// For each live view index being made outside the lock (`LiveHub.prepareView`), the
        /// rows written since the version it is made from, by the preparation's number.
        package var rowsWritten: [Int: RowsWritten] = [:]
        /// Set once the channel has left the hub (its list was deleted, or it stayed idle too
        /// long): nothing changes in it any more, and a subscriber that still found it starts over.
        package var closed = false

        /// The view of `window` at `current`, from the cache when it is there.
        package mutating func currentView(_ window: LiveWindow, renderer: HTMLRenderer, rowMarkup: RowMarkupCache) -> LiveView {
            if let view = views[window] { return view }
            let view = LiveView(snapshot: current, window: window, renderer: renderer, rowMarkup: rowMarkup)
            views[window] = view
            return view
        }

        /// The windowed JSON document of `window` at `current`, from the cache when it is there.
        package mutating func currentJSONView(_ window: LiveWindow) -> JSONWindowView {
            if let view = jsonViews[window] { return view }
            let view = JSONWindowView(snapshot: current, window: window)
            jsonViews[window] = view
            return view
        }
    }

    /// The rows written to a list since one of its versions (`from`, a snapshot's cache as its
    /// identity), while every write named them and kept the columns; else nil from then on.
    package struct RowsWritten {
        package let from: SnapshotCache
        package let started: UInt64
        package var rows: Set<String>? = []

        /// Adds a published change's rows (`ListChange.rowsToFollow`: nil when a view cannot
        /// follow it from its rows).
        package mutating func add(_ touched: [String]?) {
            guard let touched, rows != nil else { return rows = nil }
            rows!.formUnion(touched)
            if rows!.count > Self.maxRows { rows = nil }  // making the index again costs less
        }

        /// The most rows followed: past them the index is made again.
        static let maxRows = 100_000
    }

    /// A version before the current one.
    package struct PastVersion {
        package let snapshot: ListSnapshot
        /// The `view=json` patch from it to the next version; nil when the write that followed
        /// did not start from it (a list created again under the same id).
        package let patchToNext: JSONPatch?
    }

    /// Changes received but not yet published, oldest first.
    package struct Inbox {
        package var changes: [ListChange] = []
        /// Set while a drain is scheduled, so each burst of writes schedules one.
        package var drainScheduled = false
    }

    package let listID: String
    package let state: Mutex<State>
    package let inbox = Mutex(Inbox())
    /// Rendered rows, reused across versions (it has its own lock: resets render outside `state`'s).
    package let rowMarkup = RowMarkupCache()
    /// The documents of resets, shared by every subscriber that gets the same one (its own lock).
    package let resetDocuments = ResetDocumentCache()

    /// - Parameter openedAt: monotonic nanoseconds; the channel is idle from then until its first
    ///   subscriber registers (one opened ahead of a subscriber that never came closes too).
    package init(listID: String, current: ListSnapshot, openedAt: UInt64) {
        self.listID = listID
        state = Mutex(State(current: current, idleSince: openedAt))
    }
}

extension LiveChannel {
    /// Queues a committed change for publication. Beyond `limit` waiting changes (writes
    /// outpacing fan-out), an update is merged into the last one (one event for several
    /// versions, as API.md allows), so waiting snapshots cannot pile up in memory.
    /// - Returns: true when the caller must schedule a drain (none is scheduled yet).
    package func post(_ change: ListChange, mergingBeyond limit: Int) -> Bool {
        inbox.withLock { inbox in
            if inbox.changes.count >= limit, let merged = inbox.changes.last?.merged(with: change) {
                inbox.changes[inbox.changes.count - 1] = merged
            } else {
                inbox.changes.append(change)
            }
            if inbox.drainScheduled { return false }
            inbox.drainScheduled = true
            return true
        }
    }

    /// Takes every waiting change; when there are none, marks the drain as done.
    package func takePending() -> [ListChange] {
        inbox.withLock { inbox in
            if inbox.changes.isEmpty {
                inbox.drainScheduled = false
                return []
            }
            defer { inbox.changes = [] }
            return inbox.changes
        }
    }
}
