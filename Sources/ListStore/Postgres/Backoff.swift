import Foundation
import ServerSupport

/// Waits between attempts to reach PostgreSQL again: 100 ms, doubling up to 2 s.
struct Backoff {
    static let first = Duration.milliseconds(100)
    static let longest = Duration.seconds(2)

    private(set) var next = Backoff.first

    mutating func reset() { next = Self.first }

    /// The wait to use now; the following one doubles.
    mutating func take() -> Duration {
        defer { next = min(next * 2, Self.longest) }
        return next
    }

    /// Sleeps for the next wait in short steps; false when `stopped` turned true meanwhile.
    mutating func sleep(until stopped: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + take()
        while ContinuousClock.now < deadline {
            if stopped() { return false }
            Thread.sleep(forTimeInterval: min(0.05, (deadline - ContinuousClock.now).seconds))
        }
        return !stopped()
    }
}
