/// The SQLite store's tables. `tombstones` keeps the version at which a list was deleted, so that
/// a list created again under that id continues the numbering (a client resuming from an old
/// version can never mistake the new list's patches for the old one's). Rows are stored one by
/// one so a write touches only what it changed; `order_key` sorts rows in document order within
/// a list (BINARY collation: byte order). `changes` is a rowid table so that a seek by (list,
/// version) never reads a patch; `order_keys` holds the order keys of the rows each write stored
/// (`StoredOrderKey.encode`). `settings` holds small named values (`Store.setting`).
enum Schema {
    static let version = 4

    static let current = """
        CREATE TABLE IF NOT EXISTS lists (
          id      TEXT PRIMARY KEY,
          version INTEGER NOT NULL,
          meta    BLOB NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS rows (
          list_id     TEXT NOT NULL,
          row_key     TEXT NOT NULL,
          section_key TEXT NOT NULL,
          order_key   TEXT NOT NULL,
          body        BLOB NOT NULL,
          version     INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (list_id, row_key)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS rows_by_order ON rows (list_id, order_key);
        CREATE TABLE IF NOT EXISTS changes (
          list_id    TEXT NOT NULL,
          version    INTEGER NOT NULL,
          patch      BLOB NOT NULL,
          order_keys BLOB NOT NULL DEFAULT x'',
          PRIMARY KEY (list_id, version)
        );
        CREATE TABLE IF NOT EXISTS health (id INTEGER PRIMARY KEY, checked INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS tombstones (
          id      TEXT PRIMARY KEY,
          version INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS settings (
          name  TEXT PRIMARY KEY,
          value BLOB NOT NULL
        ) WITHOUT ROWID;
        PRAGMA user_version = 4;
        """

    /// Version 2 keeps `changes` in a rowid table. In version 1 it was `WITHOUT ROWID`: its
    /// records, patches included, sat in the key's B-tree, and SQLite reads a record that spills
    /// onto overflow pages whole to compare keys, so every write of a list whose log held a big
    /// patch (the whole document of its creation) copied that patch, twice.
    static let changesToVersion2 = """
        CREATE TABLE changes_v2 (
          list_id TEXT NOT NULL,
          version INTEGER NOT NULL,
          patch   BLOB NOT NULL,
          PRIMARY KEY (list_id, version)
        );
        INSERT INTO changes_v2 (list_id, version, patch) SELECT list_id, version, patch FROM changes;
        DROP TABLE changes;
        ALTER TABLE changes_v2 RENAME TO changes;
        """

    /// Version 3 logs the order keys of the rows each write stored (entries logged before have
    /// none: they were only ever read by the instance that wrote them) and adds `settings`.
    static let changesToVersion3 = """
        ALTER TABLE changes ADD COLUMN order_keys BLOB NOT NULL DEFAULT x'';
        """

    /// Version 4 keeps each row's version (the list version of the write that last stored it).
    /// Rows stored before have 0, and take the list's version when loaded.
    static let rowsToVersion4 = """
        ALTER TABLE rows ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
        """
}
