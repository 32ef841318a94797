import ListModel
import ListServerTesting
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// Instances following each other's commits through the store: notifications, the periodic
/// reconciliation, a log too short to replay, and streams resumed on another instance.
@Suite("Several instances on one store: following commits")
struct SharedStoreFollowTests {
    static let document = SharedStoreWriteTests.document

    func patchTitle(_ instance: SharedStoreInstance, _ id: String, _ title: String) throws {
        let answer = try instance.client.patch("/lists/\(id)", #"[{"op": "replace", "path": "/title", "value": "\#(title)"}]"#)
        #expect(answer.status == 200)
    }

    func addRow(_ instance: SharedStoreInstance, _ id: String, _ key: String) throws {
        let answer = try instance.client.post("/lists/\(id)/sections/s/rows", json: SharedStoreWriteTests.row(key))
        #expect(answer.status == 200)
    }

    @Test func aNotificationBringsAnotherInstancesWritesToEverySubscriberInOrder() throws {
        try withSharedStore(instances: 2) { instances in
            let (a, b) = (instances[0], instances[1])
            try a.client.put("/lists/l", json: Self.document)
            let json = try b.subscribe("l", view: .json)
            let html = try b.subscribe("l", view: .html, query: "&limit=2")
            for key in ["b", "c", "d"] { try addRow(a, "l", key) }
            try patchTitle(a, "l", "New")
            #expect(try b.document("l")?.version == 1, "reads serve what the instance holds until it hears")
            b.notify("l", 3)
            b.notify("l", 5)
            b.notify("l", 4)  // late and out of order: nothing to do
            try b.pump(json)
            try b.pump(html)
            let final = try #require(try a.document("l"))
            #expect(try b.document("l")?.json == final.json)
            #expect(json.events.compactMap(\.id) == [1, 2, 3, 4, 5], "one patch per write, in version order")
            #expect(json.doc == final.json)
            #expect(html.version == 5)
            #expect(html.doc == (try b.freshView(of: html)), "the html window equals a fresh one")
        }
    }

    @Test func reconciliationFindsWhatNotificationsMissed() throws {
        try withSharedStore(instances: 2) { instances in
            let (a, b) = (instances[0], instances[1])
            for id in ["x", "y"] { try a.client.put("/lists/\(id)", json: Self.document) }
            for id in ["x", "y"] { _ = try b.document(id) }
            let watcher = try b.subscribe("y", view: .json)
            try patchTitle(a, "x", "Changed")
            #expect(try a.client.send(.delete, "/lists/y").status == 204)
            try a.client.put("/lists/z", json: Self.document)
            b.reconcile()
            #expect(b.registry.snapshot(id: "x")?.version == 2)
            #expect(b.registry.snapshot(id: "y") == nil)
            #expect(b.registry.snapshot(id: "z")?.version == 1, "a list created elsewhere is loaded")
            try b.pump(watcher)
            #expect(watcher.deleted)
            #expect(b.registry.holds(id: "y", version: 2), "the deletion's version is known, for a list created again")
        }
    }

    @Test func aLogThatNoLongerReachesBackReloadsTheListWithOnePatch() throws {
        try withSharedStore(instances: 2, changeLogLimit: 2) { instances in
            let (a, b) = (instances[0], instances[1])
            try a.client.put("/lists/l", json: Self.document)
            let json = try b.subscribe("l", view: .json)
            let html = try b.subscribe("l", view: .html)
            for key in ["b", "c", "d", "e", "f"] { try addRow(a, "l", key) }
            b.notify("l", 6)
            let final = try #require(try a.document("l"))
            try b.pump(json)
            try b.pump(html)
            #expect(json.events.compactMap(\.id) == [1, 6], "versions 2 to 6 in one patch")
            #expect(json.doc == final.json)
            #expect(html.doc == (try b.freshView(of: html)))
            #expect(a.registry.snapshot(id: "l")?.list.orderKeys == b.registry.snapshot(id: "l")?.list.orderKeys)
        }
    }

    @Test func aStreamResumesOnAnotherInstanceWithoutAReset() throws {
        try withSharedStore(instances: 2) { instances in
            let (a, b) = (instances[0], instances[1])
            try a.client.put("/lists/l", json: Self.document)
            _ = try b.document("l")
            let first = try a.subscribe("l", view: .json)
            for key in ["b", "c"] { try addRow(a, "l", key) }
            try a.pump(first)
            #expect(first.version == 3)
            first.stream.terminated()
            // b holds version 1; the client has 3: b catches up before it answers.
            let resumed = try b.subscribe("l", view: .json, lastEventID: 3, base: first.doc)
            try addRow(a, "l", "d")
            b.notify("l", 4)
            try b.pump(resumed)
            #expect(resumed.events.map(\.name) == ["subscription", "patch"], "no reset, nothing it had")
            #expect(resumed.doc == (try a.document("l"))?.json)

            // Resumed from an older version on an instance that holds more: patches from the log.
            let older = try b.subscribe(
                "l", view: .json, lastEventID: 1,
                base: try #require(first.events.first { $0.name == "reset" }).data
                    .flatMap { try JSONValue(parsing: $0)["/doc"] })
            try b.pump(older)
            #expect(older.events.compactMap(\.id) == [2, 3, 4])
            #expect(older.doc == resumed.doc)
        }
    }

    /// A resume is answered (the change log read) before its stream starts; writes committed in
    /// between reach it as patches, not as a `reset`, even on an instance where nobody watched
    /// the list (the route opens the channel before it reads the log).
    @Test(arguments: [0, 1])
    func aResumeMissesNoWriteCommittedBeforeItsStreamStarted(versionsBehind: Int) throws {
        try withSharedStore(instances: 1) { instances in
            let a = instances[0]
            try a.client.put("/lists/l", json: Self.document)
            let first = try #require(try a.document("l"))
            try addRow(a, "l", "b")
            let since = first.version + 1 - versionsBehind
            let base = versionsBehind == 0 ? try #require(try a.document("l")).json : first.json
            var headers = HTTPHeaders()
            headers["Last-Event-ID"] = String(since)
            let answer = try a.client.send(.get, "/lists/l/events?view=json", headers: headers)
            guard case .stream(let setup) = answer.response.body else {
                Issue.record("not a stream: \(answer.status)")
                return
            }
            for key in ["c", "d"] { try addRow(a, "l", key) }
            let resumed = LiveClient(listID: "l", view: .json, doc: base, version: since)
            setup.start(resumed.stream)
            try a.pump(resumed)
            #expect(!resumed.events.contains { $0.name == "reset" }, "no reset: \(resumed.events.map(\.name))")
            #expect(resumed.events.compactMap(\.id) == Array(since + 1...first.version + 3))
            #expect(resumed.doc == (try a.document("l"))?.json)
            resumed.stream.terminated()
        }
    }

    /// The old list's subscribers are told it is gone (API.md: `DELETE` ends the stream), not
    /// patched into the new list, whether the instance heard only of the newest version or found
    /// it by reconciliation; readers and new subscribers then get the new list.
    @Test(arguments: [false, true])
    func aListDeletedAndCreatedAgainElsewhereIsDeletedForTheOldListsSubscribers(byReconciliation: Bool) throws {
        try withSharedStore(instances: 2) { instances in
            let (a, b) = (instances[0], instances[1])
            try a.client.put("/lists/l", json: Self.document)
            let json = try b.subscribe("l", view: .json)
            let html = try b.subscribe("l", view: .html)
            #expect(try a.client.send(.delete, "/lists/l").status == 204)
            try a.client.put("/lists/l", json: #"{"title": "Again", "columns": [{"key": "name"}], "sections": []}"#)
            if byReconciliation { b.reconcile() } else { b.notify("l", 3) }
            try b.pump(json)
            try b.pump(html)
            #expect(json.deleted, "the old list's json stream is told it was deleted")
            #expect(html.deleted, "the old list's html stream is told it was deleted")
            #expect(json.version == 1, "no patch into the new list")
            let again = try #require(try b.document("l"))
            #expect(again.version == 3)
            #expect(again.json == (try a.document("l"))?.json, "the new list is served")
            let fresh = try b.subscribe("l", view: .json)
            try b.pump(fresh)
            #expect(fresh.doc == again.json)
            #expect(!fresh.deleted)
        }
    }
}
