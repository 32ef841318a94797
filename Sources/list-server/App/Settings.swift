import HTTPServer

/// What the command line asked for, after defaults and the environment are applied.
struct Settings: Sendable {
    var configuration: ServerConfiguration
    /// SQLite file, ":memory:", or a PostgreSQL URL (`StoreLocation`; it may hold a password).
    var databasePath: String
    /// Bearer token for writes; nil means writes are open (allowed only on loopback).
    var token: String?
    /// `--public` as given; nil means "find the package's Public/".
    var publicDirectory: String?
    var demo: Bool
    /// Most lists the server holds.
    var maxLists: Int = 10_000
    /// Most rows one list holds.
    var maxRows: Int = 1_000_000
    /// Most open `/events` streams.
    var maxSubscribers: Int = 20_000
}
