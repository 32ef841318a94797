/// The PostgreSQL store's tables (the SQLite ones, in PostgreSQL's types). Row and section keys
/// are `bytea`: a key may hold any character, NUL included, which `text` refuses. `order_key`
/// sorts with `COLLATE "C"` (byte order, as SQLite's BINARY). `schema_version` holds the one
/// number migrations go by.
enum PostgresSchema {
    static let version = 3

    /// The advisory lock (one `bigint` key) held by the session while the schema is created or migrated, so that
    /// instances starting together do it once.
    static let migrationLock = 0x6C69_7374_5F73_6368  // "list_sch"

    /// The statements that take a database from schema `from` to the current one.
    static func migration(from found: Int) -> [String] {
        (found == 0 ? [version1] : []) + (found <= 1 ? [version2] : []) + (found <= 2 ? [version3] : [])
    }

    /// Presence (docs/SCALE-OUT.md, "Presence"): each instance's heartbeat, and its viewers per
    /// list; an instance's counts go with it.
    static let version3 = """
        CREATE TABLE presence_instances (
          instance text PRIMARY KEY,
          seen     timestamptz NOT NULL
        );
        CREATE TABLE presence (
          instance text NOT NULL REFERENCES presence_instances ON DELETE CASCADE,
          list_id  text NOT NULL,
          viewers  bigint NOT NULL,
          PRIMARY KEY (instance, list_id)
        );
        CREATE INDEX presence_by_list ON presence (list_id);
        """

    /// Each row's version (the list version of the write that last stored it); rows stored
    /// before have 0 and take the list's version when loaded.
    static let version2 = """
        ALTER TABLE rows ADD COLUMN version bigint NOT NULL DEFAULT 0;
        """

    static let version1 = """
        CREATE TABLE lists (
          id      text PRIMARY KEY,
          version bigint NOT NULL,
          meta    bytea NOT NULL
        );
        CREATE TABLE rows (
          list_id     text NOT NULL,
          row_key     bytea NOT NULL,
          section_key bytea NOT NULL,
          order_key   text COLLATE "C" NOT NULL,
          body        bytea NOT NULL,
          PRIMARY KEY (list_id, row_key)
        );
        CREATE INDEX rows_by_order ON rows (list_id, order_key);
        CREATE TABLE changes (
          list_id    text NOT NULL,
          version    bigint NOT NULL,
          patch      bytea NOT NULL,
          order_keys bytea NOT NULL,
          PRIMARY KEY (list_id, version)
        );
        CREATE TABLE tombstones (
          id      text PRIMARY KEY,
          version bigint NOT NULL
        );
        CREATE TABLE settings (
          name  text PRIMARY KEY,
          value bytea NOT NULL
        );
        CREATE TABLE health (
          id      integer PRIMARY KEY,
          checked timestamptz NOT NULL
        );
        CREATE TABLE schema_version (version integer NOT NULL);
        """

    /// Creates or migrates the schema unless it is current (then it writes nothing). Under the
    /// migration lock, so concurrent starts wait for the first and then find the schema current.
    /// Throws `.failed` for a schema newer than this program knows.
    static func prepare(_ connection: PGConnection) throws {
        if try currentVersion(connection) == version { return }
        // A session lock taken before the transaction: a transaction begun before another
        // instance's migration committed may not see its tables in the catalog caches.
        // Another instance's migration may take longer than the session's lock_timeout (the
        // write timeout): wait for it as long as statement_timeout lets.
        try connection.execute("SET lock_timeout = 0; SELECT pg_advisory_lock(\(migrationLock))")
        defer { _ = try? connection.execute("SELECT pg_advisory_unlock(\(migrationLock)); RESET lock_timeout") }
        try connection.transaction {
            let found = try currentVersion(connection)
            guard found < version else { return }
            for step in migration(from: found) { try connection.execute(step) }
            try connection.execute("DELETE FROM schema_version; INSERT INTO schema_version VALUES (\(version))")
        }
        if try currentVersion(connection) != version {
            throw StoreError(.failed, "the PostgreSQL schema is at version \(try currentVersion(connection)), not \(version)")
        }
    }

    private static func currentVersion(_ connection: PGConnection) throws -> Int {
        let exists = try connection.query("SELECT to_regclass('schema_version') IS NOT NULL").bytes(0, 0) == [1]
        guard exists else { return 0 }
        let found = try connection.query("SELECT coalesce(max(version), 0)::bigint FROM schema_version").int(0, 0)
        if found > version {
            throw StoreError(.failed, "the PostgreSQL schema is at version \(found), newer than this list-server's \(version)")
        }
        return found
    }
}
