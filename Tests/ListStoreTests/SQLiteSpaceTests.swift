import CSQLite
import Foundation
import Testing

@testable import ListStore

/// How SQLite failures reach callers (`SQLiteError.storeKind`: 507, 503 or 500 over HTTP), and the
/// disk reserve kept beside a database (`SQLiteSpace`).
@Suite struct SQLiteSpaceTests {
    @Test func failuresMapToWhatACallerCanDo() {
        func kind(_ code: Int32, errno: Int32 = 0) -> StoreError.Kind {
            SQLiteError(code: code, message: "test", systemErrno: errno).storeKind
        }
        #expect(kind(SQLITE_FULL) == .full)
        #expect(kind(SQLITE_IOERR | (19 << 8)) == .full)  // SQLITE_IOERR_SHMSIZE
        #expect(kind(SQLITE_IOERR | (3 << 8), errno: ENOSPC) == .full)  // a write that found no room
        #expect(kind(SQLITE_IOERR | (3 << 8), errno: EDQUOT) == .full)
        #expect(kind(SQLITE_IOERR | (3 << 8), errno: EIO) == .unavailable)
        #expect(kind(SQLITE_IOERR) == .unavailable)
        #expect(kind(SQLITE_BUSY) == .busy)  // another process kept the file locked past the busy timeout
        #expect(kind(SQLITE_LOCKED) == .busy)
        #expect(kind(SQLITE_READONLY) == .unavailable)
        #expect(kind(SQLITE_CANTOPEN) == .unavailable)
        #expect(kind(SQLITE_CORRUPT) == .failed)
        #expect(kind(SQLITE_CONSTRAINT) == .failed)
    }

    @Test func aNewDatabaseCanGiveFreedPagesBack() throws {
        let database = ListStoreTests.TemporaryDatabase()
        let store = try SQLiteStore(path: database.path, diskReserve: 0)
        defer { store.close() }
        let autoVacuum = try store.reading { db -> Int in
            let query = try db.statement("PRAGMA auto_vacuum")
            defer { query.reset() }
            return try query.step() ? query.int(0) : -1
        }
        #expect(autoVacuum == 2)  // INCREMENTAL
    }

    @Test func theReserveIsMadeReleasedInPartAndMadeWholeAgain() throws {
        let database = ListStoreTests.TemporaryDatabase()
        let store = try SQLiteStore(path: database.path, diskReserve: 3 << 20)
        defer { store.close() }
        let space = try #require(store.space)
        let size = { (try? FileManager.default.attributesOfItem(atPath: space.reservePath)[.size] as? Int) ?? nil }
        #expect(size() == 3 << 20)
        #expect(space.hasReserve)
        #expect(space.releaseReserve(bytes: 1 << 20))
        #expect(size() == 2 << 20)
        #expect(!space.hasReserve)
        space.restoreIfRoom()
        #expect(size() == 3 << 20)
        #expect(space.releaseReserve())
        #expect(size() == nil)
        #expect(!space.releaseReserve())
    }

    @Test func aWriteThatFoundNoRoomMarksTheStoreUntilOneSucceeds() throws {
        let database = ListStoreTests.TemporaryDatabase()
        let store = try SQLiteStore(path: database.path, diskReserve: 0)
        defer { store.close() }
        let space = try #require(store.space)
        #expect(!store.isOutOfRoom)
        space.ranOut()
        #expect(store.isOutOfRoom)
        space.wrote()
        #expect(!store.isOutOfRoom)
    }
}
