import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Room on the disk of an SQLite store: whether the last write found none, and a reserve file
/// beside the database that is given back to the file system when a deletion (or start-up)
/// would otherwise fail for lack of room.
///
/// SQLite needs room even to delete: a deletion writes the pages it changes to the WAL first.
/// On a full disk that write fails like any other, and without the reserve no list could ever
/// be deleted to make room. The reserve is made whole again once the disk has room for it.
final class SQLiteSpace: Sendable {
    /// `<database>-reserve`, on the database's file system.
    let reservePath: String
    let reserveBytes: Int
    private let directory: String
    private let state = Mutex(State())

    private struct State {
        var outOfRoom = false
        var lastRestore: UInt64 = 0
    }

    init(databasePath: String, reserveBytes: Int) {
        reservePath = databasePath + "-reserve"
        self.reserveBytes = max(0, reserveBytes)
        let slash = databasePath.lastIndex(of: "/")
        directory = slash.map { String(databasePath[..<$0]).isEmpty ? "/" : String(databasePath[..<$0]) } ?? "."
    }

    /// True from a write that found no room until a write succeeds (or the disk has room again).
    var outOfRoom: Bool { state.withLock { $0.outOfRoom } }

    /// Records that a write failed for lack of room.
    func ranOut() { state.withLock { $0.outOfRoom = true } }

    /// Records a successful write; makes the reserve again if it is gone and there is room
    /// (tried at most every 10 seconds).
    func wrote() {
        let retry = state.withLock { state -> Bool in
            state.outOfRoom = false
            let now = Self.now()
            guard now &- state.lastRestore > 10_000_000_000 else { return false }
            state.lastRestore = now
            return true
        }
        if retry && !hasReserve { restoreIfRoom() }
    }

    /// Forgets a shortage the disk no longer has (the reserve whole and 4 MiB free besides).
    func clearIfRoom() {
        if hasReserve && freeBytes >= 4 << 20 { state.withLock { $0.outOfRoom = false } }
    }

    /// True when the reserve file is in place at its full size (or no reserve is kept).
    var hasReserve: Bool {
        guard reserveBytes > 0 else { return true }
        var info = stat()
        return stat(reservePath, &info) == 0 && Int(info.st_size) >= reserveBytes
    }

    /// Gives the reserve back to the file system: all of it, or only `bytes` of it. Returns
    /// false when there was none to give.
    ///
    /// The corresponding C functions are `unlink` and `truncate`.
    @discardableResult
    func releaseReserve(bytes: Int? = nil) -> Bool {
        guard reserveBytes > 0 else { return false }
        var info = stat()
        guard stat(reservePath, &info) == 0, info.st_size > 0 else { return false }
        guard let bytes, Int(info.st_size) > bytes else { return unlink(reservePath) == 0 }
        return truncate(reservePath, info.st_size - off_t(bytes)) == 0
    }

    /// Brings the reserve file to its full size when the disk has room for what is missing and
    /// 1 MiB more. Blocks are allocated, not just promised: a sparse file would free nothing.
    ///
    /// The corresponding C functions are `statvfs` and `posix_fallocate`.
    func restoreIfRoom() {
        guard reserveBytes > 0 else { return }
        var info = stat()
        let present = stat(reservePath, &info) == 0 ? Int(info.st_size) : 0
        guard present < reserveBytes, freeBytes >= reserveBytes - present + (1 << 20) else { return }
        let fd = open(reservePath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        if posix_fallocate(fd, 0, off_t(reserveBytes)) == 0 { fsync(fd) }
        close(fd)
    }

    /// Bytes the file system has free for this process.
    private var freeBytes: Int {
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return 0 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
