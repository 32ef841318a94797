import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Line-oriented logging to standard error: `2026-01-02T03:04:05Z message`, with the level in
/// front of the message for `debug`, `warning` and `error` (`…Z warning: message`).
///
/// Each line goes out in a single `write(2)`, so lines from several threads never interleave.
/// Lines below `Log.level` are not written, and their messages are not even built.
public enum Log {
    /// How much a line matters, least first.
    public enum Level: Int, Comparable, Sendable, CaseIterable {
        /// Detail for finding a fault; off by default.
        case debug
        /// What the server is doing: start, stop, one line per request (unless `--quiet`).
        case info
        /// Something went wrong outside the server (a store out of reach, a slow client) and
        /// the server carries on.
        case warning
        /// A request or a task failed because of the server or its machine.
        case error

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }

        /// The level's name as `--log-level` takes it ("debug", "info", "warning", "error").
        public var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }

        /// The level named `name`, or nil.
        public init?(name: String) {
            guard let level = Level.allCases.first(where: { $0.name == name }) else { return nil }
            self = level
        }
    }

    private static let threshold = Atomic<Int>(Level.info.rawValue)

    /// The least level written; `info` until changed (at start-up, before serving).
    public static var level: Level {
        get { Level(rawValue: threshold.load(ordering: .relaxed)) ?? .info }
        set { threshold.store(newValue.rawValue, ordering: .relaxed) }
    }

    /// True when lines of `level` are written.
    public static func isEnabled(_ level: Level) -> Bool {
        level.rawValue >= threshold.load(ordering: .relaxed)
    }

    public static func debug(_ message: @autoclosure () -> String) { write(.debug, message) }
    public static func info(_ message: @autoclosure () -> String) { write(.info, message) }
    public static func warning(_ message: @autoclosure () -> String) { write(.warning, message) }
    public static func error(_ message: @autoclosure () -> String) { write(.error, message) }
    /// Logs `message` at `level`, for a level decided at run time.
    public static func log(_ level: Level, _ message: @autoclosure () -> String) { write(level, message) }

    /// The line written for `message` at `level`, without its timestamp and newline:
    /// `message` for `info`, `level: message` for the others.
    static func text(_ level: Level, _ message: String) -> String {
        level == .info ? message : "\(level.name): \(message)"
    }

    private static func write(_ level: Level, _ message: () -> String) {
        guard isEnabled(level) else { return }
        var line = timestamp()
        line += " "
        line += text(level, message())
        line += "\n"
        var bytes = Array(line.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + written, $0.count - written) }
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
