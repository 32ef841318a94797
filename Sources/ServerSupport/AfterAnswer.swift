import Synchronization

/// Work a request's handler puts off until its answer is on its way to the client.
///
/// A write's handler commits, and the live hub then publishes the change to the list's
/// subscribers. Published on another thread at once, the ~1 ms of a fan-out to 16 live views
/// often took the core the server needed to send the writer's answer: the answer came at 1x or
/// at 3x the time of the same write to a list nobody watched, from one run to the next
/// (`scripts/bench/live_views.py`, docs/BENCHMARKS-HISTORY.md); started once the handler had
/// handed its answer over, still in one run of three. The server runs each write's handler
/// inside `collecting`, and what it put off (`run`) once the connection's thread has queued
/// the answer, on that thread: put off quick work only (the hub puts off handing the fan-out to
/// its publisher).
public final class AfterAnswer: Sendable {
    /// The request being answered on this thread, while its handler runs (`collecting`).
    @TaskLocal private static var current: AfterAnswer?

    private let jobs = Mutex<[@Sendable () -> Void]>([])

    private init() {}

    /// Runs `handle` (a request's handler); returns its answer and what it put off.
    public static func collecting<Answer>(_ handle: () throws -> Answer) rethrows -> (Answer, AfterAnswer) {
        let putOff = AfterAnswer()
        return (try $current.withValue(putOff, operation: handle), putOff)
    }

    /// Puts `job` off until the answer of the request this thread is handling is on its way.
    /// - Returns: false when no request is being handled here (a test calling a router, a
    ///   change from another instance): the caller must then see to `job` itself.
    public static func putOff(_ job: @escaping @Sendable () -> Void) -> Bool {
        guard let current else { return false }
        current.jobs.withLock { $0.append(job) }
        return true
    }

    /// Whether nothing was put off.
    public var isEmpty: Bool { jobs.withLock { $0.isEmpty } }

    /// Runs what the handler put off, in order (once: a second call finds nothing).
    public func run() {
        for job in jobs.withLock({ jobs in
            defer { jobs = [] }
            return jobs
        }) { job() }
    }
}
