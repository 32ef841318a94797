import Dispatch
import ListModel
import ListService
import ServerSupport
import Synchronization

/// Views built in the background once a reader paged past half of the first rows read without
/// them (`ViewRequest.page`), so that the pages after those find them built: one at a time, at most
/// `ServerDefaults.maxPendingViewBuilds` waiting (more are not started: the read that needs
/// such a view builds it, as for any view).
enum ViewBuilds {
    private static let queue = DispatchQueue(label: "list-server.view-builds", qos: .utility)
    private static let pending = Atomic<Int>(0)

    /// Builds `snapshot` seen through `query` into the snapshot's cache of views, later.
    static func start(_ query: ListQuery, of snapshot: ListSnapshot) {
        guard pending.add(1, ordering: .relaxed).newValue <= ServerDefaults.maxPendingViewBuilds else {
            pending.subtract(1, ordering: .relaxed)
            return
        }
        queue.async {
            defer { pending.subtract(1, ordering: .relaxed) }
            let started = monotonicNanoseconds()
            defer { ViewRequest.afterSorting(snapshot) }
            guard let view = try? ViewRequest.view(snapshot, query) else { return }
            let milliseconds = (monotonicNanoseconds() - started) / 1_000_000
            Log.debug(
                "view of \(snapshot.id) at version \(snapshot.version) built behind its first page "
                    + "(\(query.queryString), \(view.rowCount) rows) in \(milliseconds) ms")
        }
    }
}
