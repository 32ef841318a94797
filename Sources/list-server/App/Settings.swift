import HTTPServer
import ServerSupport

/// What the command line asked for, after defaults and the environment are applied.
struct Settings: Sendable {
    var configuration: ServerConfiguration
    /// SQLite file, ":memory:", or a PostgreSQL URL (`StoreLocation`; it may hold a password).
    var databasePath: String
    /// Bytes kept beside an SQLite file so that lists can be deleted on a full disk.
    var diskReserve = ServerDefaults.diskReserve
    /// `--token`: a bearer token with every right; with no `tokensFile` either, writes are open
    /// (allowed only on loopback).
    var token: String?
    /// `--tokens`: the file of scoped tokens, re-read on SIGHUP.
    var tokensFile: String? = nil
    /// `--private`: reads need `read` on the list (or its view link).
    var isPrivate = false
    /// `--secret`/`LIST_SERVER_SECRET`: signs view links; nil takes the store's.
    var secret: String? = nil
    /// `--public` as given; nil means "find the package's Public/".
    var publicDirectory: String?
    var demo: Bool
    /// Most lists the server holds.
    var maxLists = ServerDefaults.maxLists
    /// Most rows one list holds.
    var maxRows = ServerDefaults.maxRows
    /// Most open `/events` streams.
    var maxSubscribers = ServerDefaults.maxSubscribers
    /// Most live views per list (`--max-views`).
    var maxViews = ServerDefaults.maxViews
    /// Seconds a subscriber may stay behind before it is disconnected.
    var staleTimeoutSeconds = ServerDefaults.staleTimeoutSeconds
    /// `--write-timeout`: seconds a write waits for its list in all (queue, connection, locks).
    var writeTimeoutSeconds = ServerDefaults.writeTimeoutSeconds
    /// `--instance`: put in front of this instance's subscription ids (docs/SCALE-OUT.md).
    var instanceName: String? = nil
    /// `--base-url`, validated and without its trailing slash.
    var baseURL: String? = nil

    /// 1 to 32 characters of `A-Za-z0-9_-` (no dot: the dot ends it in a subscription id).
    static func isValidInstanceName(_ name: String) -> Bool {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-".utf8)
        return (1...32).contains(name.utf8.count) && name.utf8.allSatisfy(allowed.contains)
    }
}
