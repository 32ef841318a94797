import Foundation

/// Announces this instance's commits to every instance, after they committed: `NOTIFY` inside
/// the write transaction would take a database-wide lock at commit and serialize all commits,
/// so commits only add to a coalesced set, and one thread sends it from a connection of its own
/// (`pg_notify`, several `id:version` lines to a payload). When PostgreSQL is away the set waits
/// and is sent once it is back; a notification lost anyway costs only latency, since instances
/// reconcile with `Store.versions()`.
final class PostgresNotifier: @unchecked Sendable {
    private let address: PostgresAddress
    private let condition = NSCondition()
    private var pending = PendingNotifications()
    private var stopped = false
    /// The server process of the notifying connection (0 before it connects): the listener
    /// ignores notifications from it, which are this instance's own commits.
    private var pid: Int32 = 0

    init(address: PostgresAddress) {
        self.address = address
        let thread = Thread { [self] in run() }
        thread.name = "postgres-notifier"
        thread.start()
    }

    /// Queues the announcement that `id` reached `version`; returns at once.
    func announce(id: String, version: Int) {
        condition.withLock {
            pending.add(id: id, version: version)
            condition.signal()
        }
    }

    /// The backend process id notifications from this instance carry.
    var senderPID: Int32 { condition.withLock { pid } }

    /// Ends the thread once it has sent what is pending (one attempt).
    func stop() {
        condition.withLock {
            stopped = true
            condition.signal()
        }
    }

    private func run() {
        var connection: PGConnection?
        var backoff = Backoff()
        while let batch = nextBatch() {
            do {
                if connection == nil || connection!.isBroken {
                    connection = nil
                    connection = try PGConnection(address)
                    // A notification is delivered at commit whether or not the commit record
                    // reached the disk; one lost to a crash costs only latency.
                    try connection!.execute("SET synchronous_commit = off")
                    condition.withLock { pid = connection!.backendPID }
                }
                var unsent = batch
                for payload in unsent.takePayloads() {
                    try connection!.run(PostgresStatements.notify, [.text(PendingNotifications.channel), .text(payload)])
                }
                backoff.reset()
            } catch {
                condition.withLock { pending.merge(batch) }
                if !backoff.sleep(until: { self.condition.withLock { self.stopped } }) { return }
            }
        }
    }

    /// Waits for something to send; nil once stopped with nothing left (what is pending when the
    /// store closes is still sent, once).
    private func nextBatch() -> PendingNotifications? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty && !stopped { condition.wait() }
        if pending.isEmpty { return nil }
        let batch = pending
        pending = PendingNotifications()
        return batch
    }
}
