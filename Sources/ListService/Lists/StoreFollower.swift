import Foundation
import ListStore
import ServerSupport
import Synchronization

/// Keeps the registry in step with the commits of other instances sharing its store: the
/// store's change feed names lists to catch up, and a periodic comparison of every version
/// (`Store.versions()`, cheap) finds what the feed missed, so a lost notification costs latency,
/// never correctness. Catch-ups run one at a time on the follower's own queue, never on the
/// feed's thread; notifications for one list arriving meanwhile are coalesced.
package final class StoreFollower: Sendable {
    private let registry: ListRegistry
    private let store: any Store
    private let reconcileSeconds: Double?
    private let queue = DispatchQueue(label: "list-server.follow", qos: .userInitiated)
    /// Lists waiting for a catch-up, with the newest version heard of.
    private let pending = Mutex<[String: Int]>([:])
    private let running = Atomic<Bool>(false)
    /// Whether the last reconciliation failed, so a store that stays away is logged once.
    private let failing = Atomic<Bool>(false)

    /// - Parameter reconcileSeconds: how often to compare every version with the store; nil for
    ///   never (a store no other instance writes to).
    package init(registry: ListRegistry, store: any Store, reconcileSeconds: Double?) {
        self.registry = registry
        self.store = store
        self.reconcileSeconds = reconcileSeconds
    }

    /// Starts the change feed and the periodic reconciliation.
    package func start() {
        running.store(true, ordering: .relaxed)
        store.startChangeFeed { [self] event in receive(event) }
        guard let reconcileSeconds else { return }
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                usleep(useconds_t(reconcileSeconds * 1e6))
                if running.load(ordering: .relaxed) { queue.async { self.reconcile() } }
            }
        }
        thread.name = "store-reconcile"
        thread.start()
    }

    /// Stops the periodic reconciliation (the feed stops with the store).
    package func stop() { running.store(false, ordering: .relaxed) }

    /// Takes one feed event (on the feed's thread): queues what it asks for and returns.
    package func receive(_ event: StoreFeedEvent) {
        switch event {
        case .committed(let id, let version):
            if registry.holds(id: id, version: version) { return }
            enqueue([(id, version)])
        case .resync:
            queue.async { self.reconcile() }
        }
    }

    /// Compares every version with the store's and queues a catch-up of each list that differs.
    package func reconcile() {
        do {
            let versions = try store.versions()
            if failing.exchange(false, ordering: .relaxed) { Log.info("store reachable again: reconciling") }
            enqueue(registry.outdated(comparedWith: versions))
        } catch {
            if !failing.exchange(true, ordering: .relaxed) { Log.warning("cannot compare versions with the store: \(error)") }
        }
    }

    /// Waits until every catch-up queued so far has run (tests).
    package func waitUntilIdle() { queue.sync {} }

    private func enqueue(_ lists: [(id: String, version: Int)]) {
        let fresh = pending.withLock { pending -> [String] in
            var fresh: [String] = []
            for (id, version) in lists {
                if let known = pending[id] {
                    pending[id] = max(known, version)
                } else {
                    pending[id] = version
                    fresh.append(id)
                }
            }
            return fresh
        }
        for id in fresh { queue.async { self.catchUp(id) } }
    }

    private func catchUp(_ id: String) {
        guard let version = pending.withLock({ $0.removeValue(forKey: id) }) else { return }
        do {
            try registry.catchUp(id: id, to: version)
        } catch {
            // The next reconciliation finds it again.
            if !failing.load(ordering: .relaxed) { Log.warning("cannot catch up list \(id): \(error)") }
        }
    }
}
