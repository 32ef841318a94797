#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on the monotonic clock (`CLOCK_MONOTONIC`), for durations and deadlines: never
/// jumps with the wall clock. Only differences mean anything.
public func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
