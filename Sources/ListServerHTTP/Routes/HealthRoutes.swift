import HTTPServer
import ListService
import ListStore
import ServerSupport
import Synchronization

/// `GET /healthz`: "ok" while the server can serve and its store takes writes; 503 otherwise.
///
/// The store is proven writable with a tiny write at most once a second (`HealthCheck`), so
/// the endpoint cannot be used to hammer the store.
package enum HealthRoutes {
    package static func register(on router: inout Router, context: ServerContext) {
        let check = HealthCheck { try context.registry.checkStoreWritable() }
        router.get("/healthz") { _ in
            // A write that found no room counts at once, not at the next probe.
            if context.registry.storeIsOutOfRoom {
                throw HTTPError(
                    .serviceUnavailable, "The store's disk has no room left for writes; deleting lists frees some.",
                    headers: ["Retry-After": "\(StoreError.retryAfterSeconds)"])
            }
            if let failure = check.failure() {
                Log.warning("health check: the store cannot take writes: \(failure)")
                throw HTTPError(.serviceUnavailable, "The store cannot take writes; the cause is in the server's log.")
            }
            return .text("ok\n")
        }
    }
}

/// Runs a probe at most once per `interval` and remembers its outcome in between.
package final class HealthCheck: Sendable {
    private struct Outcome {
        package var checkedAt: UInt64 = 0
        package var failure: String?
        package var checked = false
    }

    private let probe: @Sendable () throws -> Void
    private let intervalNanoseconds: UInt64
    private let outcome = Mutex(Outcome())

    package init(interval seconds: Double = 1, probe: @escaping @Sendable () throws -> Void) {
        self.probe = probe
        self.intervalNanoseconds = UInt64(seconds * 1e9)
    }

    /// The probe's failure, or nil when it passed; probes again once the interval has passed.
    package func failure() -> String? {
        let now = monotonicNanoseconds()
        return outcome.withLock { outcome in
            if outcome.checked && now - outcome.checkedAt < intervalNanoseconds { return outcome.failure }
            do {
                try probe()
                outcome.failure = nil
            } catch {
                outcome.failure = "\(error)"
            }
            outcome.checked = true
            outcome.checkedAt = now
            return outcome.failure
        }
    }
}
