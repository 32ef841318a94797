import Foundation
import ListStore
import ServerSupport
import Synchronization

/// Shares presence with the other instances of a store they share (docs/SCALE-OUT.md,
/// "Presence"): every `intervalSeconds` (1 s), one short transaction records this instance as
/// alive, replaces its per-list viewer counts when they changed since the last exchange that
/// succeeded, and reads the other live instances' viewers of the lists this instance has
/// streams of, which the hub adds to its own (`LiveHub.setRemoteViewers`). An instance not heard
/// of for `expirySeconds` (killed, or cut off from the store) counts for nothing.
package final class PresenceExchange: Sendable {
    private let hub: LiveHub
    private let store: any PresenceStore
    private let instance: String
    private let intervalSeconds: Double
    private let expirySeconds: Double
    private let running = Atomic<Bool>(false)
    /// The counts last stored (nil: none yet, or the last exchange failed), and whether the
    /// instance has left: held for a whole exchange, so none runs during or after `stop`'s leave.
    private let turn = Mutex<(stored: [String: Int]?, left: Bool)>((nil, false))
    /// When the last exchange succeeded (monotonic nanoseconds).
    private let lastSuccess = Mutex<UInt64>(0)

    /// - Parameter instance: this instance's name in the store (unique among the instances).
    package init(
        hub: LiveHub, store: any PresenceStore, instance: String, intervalSeconds: Double = 1,
        expirySeconds: Double = 5
    ) {
        self.hub = hub
        self.store = store
        self.instance = instance
        self.intervalSeconds = intervalSeconds
        self.expirySeconds = expirySeconds
    }

    /// Starts exchanging on a thread of its own.
    package func start() {
        running.store(true, ordering: .relaxed)
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                exchange()
                usleep(useconds_t(intervalSeconds * 1e6))
            }
        }
        thread.name = "presence-exchange"
        thread.start()
    }

    /// Stops exchanging and takes this instance's counts out of the store, so the others'
    /// sums drop at once (a killed instance's expire instead).
    package func stop() {
        running.store(false, ordering: .relaxed)
        turn.withLock { turn in
            turn.left = true
            try? store.leavePresence(instance: instance)
        }
    }

    /// One exchange (the thread's step; tests call it directly).
    package func exchange() {
        turn.withLock { turn in
            guard !turn.left else { return }
            let local = hub.localViewers()
            do {
                let remote = try store.exchangePresence(
                    instance: instance, counts: turn.stored == local ? nil : local, lists: Array(local.keys),
                    expiry: .milliseconds(Int64(expirySeconds * 1000)))
                turn.stored = local
                lastSuccess.withLock { $0 = monotonicNanoseconds() }
                hub.setRemoteViewers(remote)
            } catch {
                turn.stored = nil
                // Counts no fresher than the others' expiry are not shown: this instance's own stay.
                let silent = lastSuccess.withLock { Double(monotonicNanoseconds() - $0) / 1e9 > expirySeconds }
                if silent { hub.setRemoteViewers([:]) }
                Log.debug("cannot exchange presence with the store: \(error)")
            }
        }
    }
}
