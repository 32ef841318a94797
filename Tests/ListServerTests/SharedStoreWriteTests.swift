import ListModel
import ListServerTesting
import Synchronization
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// Writes on several instances sharing one store: each is committed on the store's version, not
/// the instance's copy, so versions stay consecutive and `If-Match` means the committed version.
@Suite("Several instances on one store: writes")
struct SharedStoreWriteTests {
    static let document = """
        {"title": "T", "columns": [{"key": "name"}], "sections": [{"key": "s", "rows": [{"key": "a", "cells": {"name": "A"}}]}]}
        """

    static func row(_ key: String) -> String { #"[{"key": "\#(key)", "cells": {"name": "\#(key)"}}]"# }

    @Test func aWriteOnAStaleInstanceIsRetriedOnTheCommittedVersion() throws {
        try withSharedStore(instances: 2) { instances in
            let (a, b) = (instances[0], instances[1])
            #expect(try a.client.put("/lists/l", json: Self.document).status == 201)
            #expect(try b.document("l")?.version == 1, "an instance that never held the list finds it in the store")
            let watcher = try b.subscribe("l", view: .json)
            #expect(try a.client.post("/lists/l/sections/s/rows", json: Self.row("b")).header("ETag") == "\"2\"")
            // b still holds version 1 and has heard of nothing: its write meets a's commit, b
            // catches up and writes on top of it.
            let answer = try b.client.post("/lists/l/sections/s/rows", json: Self.row("c"))
            #expect(answer.status == 200)
            #expect(answer.header("ETag") == "\"3\"")
            let onB = try #require(try b.document("l"))
            #expect(onB.json["/sections/0/rows"]?.arrayValue?.compactMap { $0["/key"]?.stringValue } == ["a", "b", "c"])
            a.notify("l", 3)
            #expect(try a.document("l")?.json == onB.json)
            #expect(
                a.registry.snapshot(id: "l")?.list.orderKeys == b.registry.snapshot(id: "l")?.list.orderKeys,
                "every instance gives every row the same order key")
            try b.pump(watcher)
            #expect(watcher.events.compactMap(\.id) == [1, 2, 3], "b's subscriber got a's write, then b's, in order")
            #expect(watcher.doc == onB.json)
        }
    }

    @Test func theSameIfMatchOnTwoInstancesLetsExactlyOneWin() throws {
        try withSharedStore(instances: 2) { instances in
            let (a, b) = (instances[0], instances[1])
            try a.client.put("/lists/l", json: Self.document)
            _ = try b.document("l")
            let patch = #"[{"op": "replace", "path": "/title", "value": "X"}]"#
            #expect(try a.client.patch("/lists/l", patch, headers: ["If-Match": "\"1\""]).status == 200)
            let late = try b.client.patch("/lists/l", patch, headers: ["If-Match": "\"1\""])
            #expect(late.status == 412, "b checked If-Match against the committed version 2, not its copy at 1")
            #expect(late.body.contains("version 2"))
            // And the other way round: an If-Match naming a version the instance has not seen yet.
            #expect(try b.client.patch("/lists/l", patch, headers: ["If-Match": "\"2\""]).status == 200)
            #expect(try a.client.patch("/lists/l", patch, headers: ["If-Match": "\"3\""]).header("ETag") == "\"4\"")

            // Both at once, many times: exactly one of each pair wins.
            for round in 0..<20 {
                let version = try #require(try a.document("l")).version
                _ = try b.document("l")
                let statuses = Mutex<[Int]>([])
                runConcurrently(
                    [a, b].map { instance in
                        {
                            let body = #"[{"op": "replace", "path": "/title", "value": "round \#(round)"}]"#
                            let status = try instance.client.patch("/lists/l", body, headers: ["If-Match": "\"\(version)\""]).status
                            statuses.withLock { $0.append(status) }
                        }
                    })
                #expect(statuses.withLock { $0.sorted() } == [200, 412], "round \(round)")
            }
        }
    }

    @Test func deletionsAndRecreationsAcrossInstancesContinueTheVersions() throws {
        try withSharedStore(instances: 3) { instances in
            let (a, b, c) = (instances[0], instances[1], instances[2])
            try a.client.put("/lists/l", json: Self.document)
            for instance in [b, c] { _ = try instance.document("l") }
            let json = try b.subscribe("l", view: .json)
            let html = try b.subscribe("l", view: .html)
            #expect(try a.client.send(.delete, "/lists/l").status == 204)
            b.notify("l", 2)
            for client in [json, html] {
                try b.pump(client)
                #expect(client.deleted, "b's subscribers are told of a's deletion")
            }
            #expect(try b.client.get("/lists/l", accept: "application/json").status == 410)
            // c was never told: its write finds the deletion in the store.
            #expect(try c.client.post("/lists/l/sections/s/rows", json: Self.row("x")).status == 410)
            let created = try b.client.put("/lists/l", json: Self.document)
            #expect(created.status == 201)
            #expect(created.header("ETag") == "\"3\"", "the list created again continues after its deletion (2)")
            // a holds no list and an old tombstone: If-None-Match: * is judged by the store.
            #expect(try a.client.put("/lists/l", json: Self.document, headers: ["If-None-Match": "*"]).status == 412)
            #expect(try a.client.put("/lists/l", json: Self.document).header("ETag") == "\"4\"")
            #expect(try c.document("l")?.version == 4)
        }
    }

    @Test func concurrentWritesOnEveryInstanceConvergeWithConsecutiveVersions() throws {
        try withSharedStore(instances: 3) { instances in
            try instances[0].client.put("/lists/l", json: Self.document)
            let watchers = try instances.map { try $0.subscribe("l", view: .json) }
            let answered = Mutex<[Int]>([])
            runConcurrently(
                instances.enumerated().map { index, instance in
                    {
                        for write in 0..<25 {
                            let answer = try instance.client.post("/lists/l/sections/s/rows", json: Self.row("i\(index)w\(write)"))
                            #expect(answer.status == 200, "\(answer.body)")
                            if let etag = answer.header("ETag") { answered.withLock { $0.append(Int(etag.dropFirst().dropLast())!) } }
                        }
                    }
                })
            #expect(answered.withLock { $0.sorted() } == Array(2...76), "every write got its own version, none lost")
            for instance in instances { instance.reconcile() }
            let final = try #require(try instances[0].document("l"))
            #expect(final.version == 76)
            #expect(final.json["/sections/0/rows"]?.arrayValue?.count == 76)
            for (instance, watcher) in zip(instances, watchers) {
                #expect(try instance.document("l")?.json == final.json)
                try instance.pump(watcher)
                #expect(watcher.version == 76)
                #expect(watcher.doc == final.json, "each instance's stream, replayed, is the final document")
            }
        }
    }
}
