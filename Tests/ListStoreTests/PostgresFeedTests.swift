import Testing

@testable import ListStore

/// The change feed: what one instance commits, the others hear of (LISTEN/NOTIFY after commit).
@Suite struct PostgresFeedTests {
    let tests = ListStoreTests()

    @Test func anotherInstancesCommitsAndDeletionsArriveWithTheirVersions() throws {
        let database = try TestDatabase(.postgres)
        let writer = try database.open(), reader = try database.open()
        let heard = FeedRecorder(), ownEcho = FeedRecorder()
        reader.startChangeFeed(heard.receive)
        writer.startChangeFeed(ownEcho.receive)
        #expect(heard.wait { $0.resyncs == 1 }, "the feed starts with a resync")
        #expect(ownEcho.wait { $0.resyncs == 1 })
        try writer.commit(tests.write("a", 1))
        try writer.commit(tests.write("a", 2))
        try writer.commit(tests.write("b", 1))
        try writer.delete(id: "b", version: 2)
        #expect(heard.wait { $0.versions(of: "a").last == 2 && $0.versions(of: "b").last == 2 })
        #expect(heard.versions(of: "a") == heard.versions(of: "a").sorted(), "in commit order")
        // The reader's own commit reaches the writer, and not the reader itself.
        try reader.commit(tests.write("c", 1))
        #expect(ownEcho.wait { $0.versions(of: "c") == [1] })
        #expect(ownEcho.versions(of: "a").isEmpty, "an instance is not told of its own commits")
        #expect(heard.versions(of: "c").isEmpty)
    }

    @Test func manyQuickCommitsEndAtTheLastVersion() throws {
        let database = try TestDatabase(.postgres)
        let writer = try database.open(), reader = try database.open()
        let heard = FeedRecorder()
        reader.startChangeFeed(heard.receive)
        #expect(heard.wait { $0.resyncs == 1 })
        for version in 1...200 { try writer.commit(tests.write("a", version)) }
        #expect(heard.wait { $0.versions(of: "a").last == 200 })
        let versions = heard.versions(of: "a")
        #expect(versions == versions.sorted() && Set(versions).count == versions.count)
    }

    @Test func aStoreClosedRightAfterACommitStillAnnouncesIt() throws {
        let database = try TestDatabase(.postgres)
        let reader = try database.open()
        let heard = FeedRecorder()
        reader.startChangeFeed(heard.receive)
        #expect(heard.wait { $0.resyncs == 1 })
        let writer = try database.open()
        try writer.commit(tests.write("a", 1))
        writer.close()
        #expect(heard.wait { $0.versions(of: "a") == [1] })
    }

    @Test func pendingNotificationsKeepTheNewestVersionOfEachList() {
        var pending = PendingNotifications()
        pending.add(id: "a", version: 1)
        pending.add(id: "a", version: 3)
        pending.add(id: "a", version: 2)
        pending.add(id: "b", version: 7)
        #expect(pending.takePayloads() == ["a:3\nb:7"])
        #expect(pending.isEmpty)
    }

    @Test func payloadsStayUnderPostgreSQLsLimitAndParseBack() {
        var pending = PendingNotifications()
        let ids = (0..<2_000).map { "list-\($0)-" + String(repeating: "x", count: $0 % 60) }
        for (index, id) in ids.enumerated() { pending.add(id: id, version: index + 1) }
        let payloads = pending.takePayloads()
        #expect(payloads.count > 1)
        #expect(payloads.allSatisfy { $0.utf8.count <= PendingNotifications.payloadLimit })
        let parsed = payloads.flatMap(PendingNotifications.parse)
        #expect(
            Dictionary(uniqueKeysWithValues: parsed.map { ($0.id, $0.version) })
                == Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0 + 1) }))
    }

    @Test func aPayloadLineThatDoesNotParseIsSkipped() {
        let parsed = PendingNotifications.parse("a:1\ngarbage\nb:x\nc:d:2")
        #expect(parsed.map(\.id) == ["a", "c:d"])
        #expect(parsed.map(\.version) == [1, 2])
    }
}
