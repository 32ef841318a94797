import Foundation
import ListStore

/// Says, in words and with the fix, why an SQLite `--db` file cannot be opened or written, when
/// the file system shows it; SQLite's own message ("unable to open database file", "attempt to
/// write a readonly database") names neither.
enum SQLiteFileProblem {
    /// The reason for `path` (an SQLite file, not `:memory:` or a PostgreSQL URL), or nil when
    /// nothing about its folder or file explains a failure.
    static func explain(_ path: String) -> String? {
        guard path != ":memory:", !PostgresStore.accepts(path) else { return nil }
        let file = URL(fileURLWithPath: path)
        let folder = file.deletingLastPathComponent().path
        let files = FileManager.default
        let fix = "pass --db with a path in a folder this user may write (or --db :memory: to keep nothing)"
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            return "the folder \(folder) does not exist: create it, or \(fix)"
        }
        // SQLite writes its journal (-wal, -shm) and the disk reserve beside the file.
        guard access(folder, W_OK) == 0 else {
            return "this user may not create files in \(folder) (SQLite keeps its -wal and -shm files beside the database): \(fix)"
        }
        if files.fileExists(atPath: file.path), access(file.path, W_OK) != 0 {
            return "the file \(file.path) is read-only for this user: make it writable, or \(fix)"
        }
        return nil
    }
}
