/// The store's statements, prepared once per connection. Parameters are binary (`PGValue`).
enum PostgresStatements {
    /// Serializes writes to one list across instances until the transaction ends: an advisory
    /// lock on (a constant, the id's hash), so it also holds for an id no row exists for yet.
    static let lockList = PGStatement(name: "lock_list", sql: "SELECT pg_advisory_xact_lock(1818850164, hashtext($1))")

    /// The committed version: the list's, else its tombstone's, else 0.
    static let storedVersion = PGStatement(
        name: "stored_version",
        sql: """
            SELECT coalesce((SELECT version FROM lists WHERE id = $1),
                            (SELECT version FROM tombstones WHERE id = $1), 0)::bigint
            """)

    static let deleteRows = PGStatement(
        name: "delete_rows",
        sql: """
            DELETE FROM rows WHERE list_id = $1 AND row_key = ANY($2)
            """)

    /// Many rows in one statement: one array per column; `$6` the write's version, every row's.
    static let upsertRows = PGStatement(
        name: "upsert_rows",
        sql: """
            INSERT INTO rows (list_id, row_key, section_key, order_key, body, version)
            SELECT $1, r.row_key, r.section_key, r.order_key, r.body, $6 FROM unnest($2::bytea[], $3::bytea[], $4::text[], $5::bytea[])
              AS r (row_key, section_key, order_key, body)
            ON CONFLICT (list_id, row_key) DO UPDATE SET
              section_key = excluded.section_key, order_key = excluded.order_key, body = excluded.body, version = excluded.version
            """)

    /// The list's new version and metadata (a tombstone stays: `list` reports it), the change
    /// logged and the log trimmed to the newest `$6` entries: one round trip.
    /// Parameters: id, version, meta, patch, order keys, log limit.
    static let recordWrite = PGStatement(
        name: "record_write",
        sql: """
            WITH list AS (
              INSERT INTO lists (id, version, meta) VALUES ($1, $2, $3)
              ON CONFLICT (id) DO UPDATE SET version = excluded.version, meta = excluded.meta
            ), logged AS (
              INSERT INTO changes (list_id, version, patch, order_keys) VALUES ($1, $2, $4, $5)
            )
            DELETE FROM changes WHERE list_id = $1 AND version <= $2 - $6
            """)

    /// The tombstone at `$2`, and the list, its rows and its log gone. Parameters: id, version.
    static let recordDeletion = PGStatement(
        name: "record_deletion",
        sql: """
            WITH tombstone AS (
              INSERT INTO tombstones (id, version) VALUES ($1, $2)
              ON CONFLICT (id) DO UPDATE SET version = excluded.version
            ), list_rows AS (
              DELETE FROM rows WHERE list_id = $1
            ), log AS (
              DELETE FROM changes WHERE list_id = $1
            )
            DELETE FROM lists WHERE id = $1
            """)

    static let listIDs = PGStatement(name: "list_ids", sql: "SELECT id FROM lists ORDER BY id COLLATE \"C\"")

    /// The list's version and metadata, and the version its id was last deleted at (0: never).
    static let list = PGStatement(
        name: "list",
        sql: """
            SELECT lists.version, lists.meta, coalesce(tombstones.version, 0)::bigint
            FROM lists LEFT JOIN tombstones ON tombstones.id = lists.id WHERE lists.id = $1
            """)

    static let rows = PGStatement(
        name: "rows",
        sql: """
            SELECT row_key, section_key, order_key, body, version FROM rows WHERE list_id = $1 ORDER BY order_key
            """)

    /// Every list's version, and the tombstone of every deleted id not created again; the third
    /// column is true for a tombstone.
    static let versions = PGStatement(
        name: "versions",
        sql: """
            SELECT id, version, false FROM lists
            UNION ALL SELECT id, version, true FROM tombstones WHERE id NOT IN (SELECT id FROM lists)
            """)

    /// The log from `$2` on (the entry at `$2` without its patch: it only shows the log reaches
    /// back), so one statement, on one snapshot, answers both whether and what.
    static let changes = PGStatement(
        name: "changes",
        sql: """
            SELECT version, CASE WHEN version = $2 THEN ''::bytea ELSE patch END,
                   CASE WHEN version = $2 THEN ''::bytea ELSE order_keys END
            FROM changes WHERE list_id = $1 AND version >= $2 ORDER BY version
            """)

    static let touchHealth = PGStatement(
        name: "touch_health",
        sql: """
            INSERT INTO health (id, checked) VALUES (1, now()) ON CONFLICT (id) DO UPDATE SET checked = excluded.checked
            """)

    static let setting = PGStatement(name: "setting", sql: "SELECT value FROM settings WHERE name = $1")

    static let insertSetting = PGStatement(
        name: "insert_setting",
        sql: """
            INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING
            """)

    /// Parameters: the channel, the payload (`PostgresNotifier`).
    static let notify = PGStatement(name: "notify", sql: "SELECT pg_notify($1, $2)")
}
