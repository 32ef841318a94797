import Dispatch
import ListModel
import ServerSupport
import Synchronization

/// Values computed from one snapshot and reused until the next version: the serialized
/// document (GET JSON, `view=json` resets), and whatever answers the routes build from it once
/// (the document's answer, the first HTML pages'), kept as the objects the routes make (a
/// class instance, so reading one back is a cheap class cast). A snapshot
/// never changes, so nothing here is ever stale.
package final class SnapshotCache: Sendable {
    private struct Storage {
        package var documentJSON: [UInt8]?
        package var documentAnswer: (any AnyObject & Sendable)?
        package var firstPages: [Int: any AnyObject & Sendable] = [:]
        /// Views of this version by query, least recently used first in `viewOrder`.
        package var views: [ListQuery: ListView] = [:]
        package var viewOrder: [ListQuery] = []
        /// Views being built, each left by its builder when done (built or not).
        package var buildingViews: [ListQuery: DispatchGroup] = [:]
        /// The first rows of views not built yet, read for their first pages, by query.
        package var heads: [ListQuery: ViewHead] = [:]
    }

    private let storage = Mutex(Storage())
    /// Held while the document's bytes are made, so readers arriving together (many
    /// subscribers after a write) wait for one serialization instead of each making their own.
    private let buildingDocument = Mutex(())
    /// Most first pages kept (one per `limit` asked for).
    package static let maxPages = 4

    /// The document's canonical JSON bytes, computed once (`make` takes no lock of its own).
    package func documentJSON(_ make: () -> [UInt8]) -> [UInt8] {
        if let bytes = storage.withLock({ $0.documentJSON }) { return bytes }
        return buildingDocument.withLock { _ in
            if let bytes = storage.withLock({ $0.documentJSON }) { return bytes }
            let bytes = make()
            storage.withLock { $0.documentJSON = bytes }
            return bytes
        }
    }

    /// Whether the document's bytes are made already.
    package var hasDocumentJSON: Bool { storage.withLock { $0.documentJSON != nil } }

    /// Whether the document's answer is made already (reading it back is then cheap).
    package var hasDocumentAnswer: Bool { storage.withLock { $0.documentAnswer != nil } }

    /// The answer of a read of the whole document, made once (the first one kept when two
    /// readers make it together).
    package func documentAnswer<Answer: AnyObject & Sendable>(_ make: () throws -> Answer) rethrows -> Answer {
        if let kept = storage.withLock({ $0.documentAnswer }) as? Answer { return kept }
        let made = try make()
        return storage.withLock { storage in
            if let kept = storage.documentAnswer as? Answer { return kept }
            storage.documentAnswer = made
            return made
        }
    }

    /// The list seen through `query`, built once per version (`make`, outside any lock) for the
    /// `ServerDefaults.maxViews` queries used last; an older one is dropped for a new one. A read
    /// that finds the view being built waits for it (at most `ServerDefaults.viewBuildWaitSeconds`, then builds
    /// its own) rather than sorting the same rows beside it.
    package func view(_ query: ListQuery, _ make: () throws -> ListView) rethrows -> ListView {
        enum Found {
            case kept(ListView)
            case building(DispatchGroup)
            case mine(DispatchGroup)
        }
        var waited = false
        while true {
            let found = storage.withLock { storage -> Found in
                if let kept = storage.views[query] {
                    Self.touch(query, in: &storage.viewOrder)
                    return .kept(kept)
                }
                if !waited, let group = storage.buildingViews[query] { return .building(group) }
                let group = DispatchGroup()
                group.enter()
                if storage.buildingViews[query] == nil { storage.buildingViews[query] = group }
                return .mine(group)
            }
            switch found {
            case .kept(let view):
                return view
            case .building(let group):
                waited = true
                if group.wait(timeout: .now() + .seconds(ServerDefaults.viewBuildWaitSeconds)) == .success { waited = false }
                continue
            case .mine(let group):
                defer {
                    storage.withLock { storage in
                        if storage.buildingViews[query] === group { storage.buildingViews[query] = nil }
                    }
                    group.leave()
                }
                return keep(try make(), for: query)
            }
        }
    }

    /// The view of `query` if it is built, or once it is when a read is building it (waiting at
    /// most `ServerDefaults.viewBuildWaitSeconds`); nil when nobody builds it.
    package func builtView(_ query: ListQuery) -> ListView? {
        let (kept, building) = storage.withLock { ($0.views[query], $0.buildingViews[query]) }
        if let kept { return kept }
        guard let building, building.wait(timeout: .now() + .seconds(ServerDefaults.viewBuildWaitSeconds)) == .success else { return nil }
        return storage.withLock { $0.views[query] }
    }

    /// Whether the view of `query` is built already.
    package func hasView(_ query: ListQuery) -> Bool { storage.withLock { $0.views[query] != nil } }

    /// Keeps `head`, the first rows of the view of `query`, until that view is built (at most
    /// `ServerDefaults.maxViews` heads; a whole one is kept as the view itself).
    package func keep(_ head: ViewHead, for query: ListQuery) {
        if head.isWhole {
            _ = keep(head.view, for: query)
            return
        }
        storage.withLock { storage in
            guard storage.views[query] == nil, storage.heads.count < ServerDefaults.maxViews else { return }
            storage.heads[query] = head
        }
    }

    /// The first rows of the view of `query` kept by `keep(_:for:)`, while the view is not built.
    package func head(_ query: ListQuery) -> ViewHead? { storage.withLock { $0.heads[query] } }

    /// Keeps `made` as the view of `query` (or returns the one kept already).
    private func keep(_ made: ListView, for query: ListQuery) -> ListView {
        storage.withLock { storage in
            storage.heads[query] = nil
            if let kept = storage.views[query] { return kept }
            if storage.views.count >= ServerDefaults.maxViews, !storage.viewOrder.isEmpty {
                storage.views[storage.viewOrder.removeFirst()] = nil
            }
            storage.views[query] = made
            storage.viewOrder.append(query)
            return made
        }
    }

    private static func touch(_ query: ListQuery, in order: inout [ListQuery]) {
        if let index = order.firstIndex(of: query) { order.append(order.remove(at: index)) }
    }

    /// The answer for the page of the first `limit` rows, made once per limit for up to
    /// `maxPages` limits (others are made every time).
    package func firstPage<Answer: AnyObject & Sendable>(limit: Int, _ make: () throws -> Answer) rethrows -> Answer {
        if let kept = storage.withLock({ $0.firstPages[limit] }) as? Answer { return kept }
        let made = try make()
        storage.withLock { storage in
            if storage.firstPages.count < Self.maxPages { storage.firstPages[limit] = made }
        }
        return made
    }
}
