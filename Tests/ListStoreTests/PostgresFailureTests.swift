import Foundation
import Testing

@testable import ListStore

/// PostgreSQL stopped and started again under running stores: calls fail quickly with
/// `.unavailable` meanwhile, and everything works again without reopening the stores.
@Suite(.serialized) struct PostgresFailureTests {
    let tests = ListStoreTests()

    /// Retries `body` while it throws `.unavailable` (the store reconnects with backoff); up to 30 s.
    func eventually<T>(_ body: () throws -> T) throws -> T {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            do { return try body() } catch let error as StoreError where error.kind == .unavailable && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func aRestartOfPostgreSQLIsSurvivedWithoutReopening() throws {
        let cluster = try TestCluster()
        defer { cluster.destroy() }
        let database = try TestDatabase(.postgres, in: cluster)
        let writer = try database.open(), reader = try database.open()
        let heard = FeedRecorder()
        reader.startChangeFeed(heard.receive)
        #expect(heard.wait { $0.resyncs == 1 })
        try writer.commit(tests.write("a", 1))
        #expect(heard.wait { $0.versions(of: "a") == [1] })

        try cluster.stop(immediate: true)
        for _ in 1...3 {
            #expect { try writer.commit(tests.write("a", 2)) } throws: { ($0 as? StoreError)?.kind == .unavailable }
            #expect { try reader.versions() } throws: { ($0 as? StoreError)?.kind == .unavailable }
            #expect { try reader.changes(of: "a", after: 0) } throws: { ($0 as? StoreError)?.kind == .unavailable }
            #expect { try writer.checkWritable() } throws: { ($0 as? StoreError)?.kind == .unavailable }
        }

        try cluster.start()
        #expect(heard.wait { $0.resyncs == 2 }, "the feed reconnects and says notifications may be lost")
        try eventually { try writer.commit(tests.write("a", 2)) }
        #expect(heard.wait { $0.versions(of: "a") == [1, 2] })
        #expect(try reader.versions().lists == ["a": 2])
        #expect(try reader.changes(of: "a", after: 0)?.map(\.version) == [1, 2], "nothing acknowledged was lost")
        try writer.checkWritable()
    }

    @Test(.timeLimit(.minutes(3)))
    func aStoreCannotOpenWhilePostgreSQLIsDownAndCanOnceItIsBack() throws {
        let cluster = try TestCluster()
        defer { cluster.destroy() }
        let database = try TestDatabase(.postgres, in: cluster)
        try cluster.stop()
        #expect { try database.open() } throws: { ($0 as? StoreError)?.kind == .unavailable }
        try cluster.start()
        let store = try eventually { try database.open() }
        try store.commit(tests.write("a", 1))
    }
}
