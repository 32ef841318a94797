import Foundation
import ListServerTesting
import ListStore
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// While the store cannot be reached: writes answer 503 with `Retry-After` at once, reads serve
/// what the instance holds, `/healthz` says 503; once it is back, everything works again and
/// what other instances committed meanwhile is caught up, without a restart.
@Suite("Store outage")
struct StoreOutageTests {
    @Test func writesAre503ReadsServeTheCacheAndEverythingRecovers() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("lists.sqlite").path
        let switchable = SwitchableStore(try SQLiteStore(path: path))
        let a = try SharedStoreInstance(store: switchable)
        let b = try SharedStoreInstance(path: path)
        try a.client.put("/lists/l", json: SharedStoreWriteTests.document)
        let watcher = try a.subscribe("l", view: .json)

        switchable.down.store(true, ordering: .relaxed)
        for answer in [
            try a.client.put("/lists/l", json: SharedStoreWriteTests.document),
            try a.client.post("/lists/l/sections/s/rows", json: SharedStoreWriteTests.row("x")),
            try a.client.send(.delete, "/lists/l"),
            try a.client.put("/lists/new", json: SharedStoreWriteTests.document),
        ] {
            #expect(answer.status == 503)
            #expect(answer.header("Retry-After") != nil)
            #expect(answer.header("Content-Type") == "application/problem+json")
            #expect(!answer.body.contains("test: the store is down"), "the store's own message stays in the log")
        }
        #expect(try a.client.get("/healthz").status == 503)
        #expect(try a.document("l")?.version == 1, "reads serve what the instance holds")
        #expect(try a.client.get("/lists/l").status == 200)
        #expect(try a.client.get("/lists/unknown", accept: "application/json").status == 404)
        // Another instance writes meanwhile; the notification reaches a, whose catch-up fails.
        try b.client.post("/lists/l/sections/s/rows", json: SharedStoreWriteTests.row("b"))
        a.notify("l", 2)
        #expect(try a.document("l")?.version == 1)

        switchable.down.store(false, ordering: .relaxed)
        a.reconcile()  // what the feed's `.resync` does once the store is back
        #expect(try a.document("l")?.json == (try b.document("l"))?.json)
        let answer = try a.client.post("/lists/l/sections/s/rows", json: SharedStoreWriteTests.row("c"))
        #expect(answer.header("ETag") == "\"3\"")
        try a.pump(watcher)
        #expect(watcher.events.compactMap(\.id) == [1, 2, 3])
        Thread.sleep(forTimeInterval: 1.1)  // the health check probes at most once a second
        #expect(try a.client.get("/healthz").status == 200)
    }
}
