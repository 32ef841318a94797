#if canImport(Glibc)
import Glibc
#endif

/// Line-oriented logging to standard error: `2026-01-02T03:04:05Z message`.
///
/// Each line goes out in a single `write(2)`, so lines from several threads never interleave.
public enum Log {
    public static func info(_ message: String) {
        var line = timestamp()
        line += " "
        line += message
        line += "\n"
        var bytes = Array(line.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + written, $0.count - written) }
            if n <= 0 { break }
            written += n
        }
        bytes.removeAll()
    }

    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}

/// Monotonic nanoseconds, for durations.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
