import ServerSupport

/// What `--db` names: a PostgreSQL URL (`postgresql://…` or `postgres://…`, any libpq
/// connection URI) or else an SQLite file (`:memory:` for none).
public enum StoreLocation {
    /// Opens the store `location` names (PostgreSQL: connects and migrates the schema).
    /// - Parameter diskReserve: for an SQLite file, the bytes kept in reserve for deletions on a
    ///   full disk (`SQLiteStore`).
    /// - Parameter writeTimeout: for PostgreSQL, the session's `lock_timeout` (writes wait for
    ///   locks at most until their own deadlines, which the registry gives them).
    public static func open(
        _ location: String, diskReserve: Int = ServerDefaults.diskReserve,
        writeTimeout: Duration = .seconds(ServerDefaults.writeTimeoutSeconds)
    ) throws -> any Store {
        if PostgresStore.accepts(location) { return try PostgresStore(url: location, lockTimeout: writeTimeout) }
        return try SQLiteStore(path: location, diskReserve: diskReserve)
    }

    /// `location` fit for a log line: a PostgreSQL URL without its password or parameters.
    public static func redacted(_ location: String) -> String {
        guard PostgresStore.accepts(location) else { return location }
        return (try? PostgresAddress(location).redacted) ?? "a PostgreSQL URL libpq cannot parse"
    }
}
