import Foundation
import ListModel
import ListServerTesting
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// `GET`, `PATCH` (merge) and move of one row, and row preconditions (API.md "Editing one row").
@Suite("Row reads, merges, moves and preconditions")
struct RowEditRoutesTests {
    static let document = """
        {"title": "G", "columns": [{"key": "name"}, {"key": "qty", "kind": "number"}, {"key": "note"}], "sections": [
          {"key": "a", "rows": [{"key": "1", "cells": {"name": "one", "qty": 1, "note": "n"}}, {"key": "2", "cells": {"name": "two"}}]},
          {"key": "b", "rows": [{"key": "3", "cells": {"name": "three"}, "href": "/x"}]}]}
        """

    static let merge: HTTPHeaders = ["Content-Type": "application/merge-patch+json"]

    func withList(_ body: (SharedStoreInstance) throws -> Void) throws {
        try withSharedStore(instances: 1) { instances in
            #expect(try instances[0].client.put("/lists/g", json: Self.document).status == 201)
            try body(instances[0])
        }
    }

    func json(_ answer: RouterClient.Answer) throws -> JSONValue { try JSONValue(parsing: Array(answer.body.utf8)) }

    func headers(_ base: HTTPHeaders, _ extra: HTTPHeaders) -> HTTPHeaders {
        var merged = base
        for (name, value) in extra { merged[name] = value }
        return merged
    }

    @Test func getAnswersTheRowWithItsVersionAnd304() throws {
        try withList { server in
            let client = server.client
            let row = try client.get("/lists/g/rows/3")
            #expect(row.status == 200)
            #expect(row.header("ETag") == "\"1\"")
            #expect(row.header("Content-Type") == "application/json")
            #expect(row.body == #"{"key":"3","section":"b","cells":{"name":"three"},"href":"/x","style":"default"}"# + "\n")
            #expect(try client.send(.get, "/lists/g/rows/3", headers: ["If-None-Match": "\"1\""]).status == 304)
            #expect(try client.put("/lists/g/rows/1", json: #"{"cells": {"name": "uno"}}"#).header("ETag") == "\"2\"")
            #expect(try client.get("/lists/g/rows/3").header("ETag") == "\"1\"", "a write to another row leaves it alone")
            #expect(try client.get("/lists/g/rows/1").header("ETag") == "\"2\"")
            let missingRow = try client.get("/lists/g/rows/9")
            #expect(missingRow.status == 404)
            #expect(missingRow.header("Content-Type") == "application/problem+json")
            #expect(try client.get("/lists/nope/rows/1").status == 404)
        }
    }

    @Test func rowPreconditionsCompareTheRowsVersion() throws {
        try withList { server in
            let client = server.client
            #expect(try client.put("/lists/g/rows/2", json: #"{"cells": {"name": "deux"}}"#).header("ETag") == "\"2\"")
            // Row 1 is still at version 1 though the list is at 2.
            let put = try client.put("/lists/g/rows/1", json: #"{"cells": {"name": "uno"}}"#, headers: ["If-Match": "\"1\""])
            #expect(put.status == 200)
            #expect(put.header("ETag") == "\"3\"")
            // Now stale: 412 with the row as it is.
            let stale = try client.put("/lists/g/rows/1", json: #"{"cells": {"name": "eins"}}"#, headers: ["If-Match": "\"1\""])
            #expect(stale.status == 412)
            #expect(stale.header("Content-Type") == "application/problem+json")
            let problem = try json(stale)
            #expect(problem["/status"] == .number(412))
            #expect(problem["/current"] == (try json(client.get("/lists/g/rows/1"))))
            #expect(problem["/current/cells/name"] == .string("uno"))
            // The same for merge, delete and move.
            #expect(
                try client.send(
                    .patch, "/lists/g/rows/1", #"{"cells": {"qty": 2}}"#,
                    headers: headers(Self.merge, ["If-Match": "\"2\""])
                ).status == 412)
            #expect(try client.send(.delete, "/lists/g/rows/1", headers: ["If-Match": "\"2\""]).status == 412)
            #expect(try client.send(.post, "/lists/g/rows/1/move?section=b", headers: ["If-Match": "\"2\""]).status == 412)
            #expect(try client.send(.delete, "/lists/g/rows/1", headers: ["If-Match": "\"3\""]).status == 204)
            // Gone: current is null.
            let gone = try client.put("/lists/g/rows/1", json: #"{"cells": {"name": "x"}}"#, headers: ["If-Match": "\"3\""])
            #expect(gone.status == 412)
            #expect(try json(gone)["/current"] == .null)
            #expect(try client.put("/lists/g/rows/1", json: #"{"cells": {"name": "x"}}"#).status == 404)
            // List-level writes keep the list's version.
            #expect(
                try client.patch(
                    "/lists/g", #"[{"op": "replace", "path": "/title", "value": "H"}]"#,
                    headers: ["If-Match": "\"1\""]
                ).status == 412)
            #expect(
                try client.patch(
                    "/lists/g", #"[{"op": "replace", "path": "/title", "value": "H"}]"#,
                    headers: ["If-Match": "\"4\""]
                ).status == 200)
        }
    }

    @Test func mergePatchSetsAndEmptiesCells() throws {
        try withList { server in
            let client = server.client
            let merged = try client.send(
                .patch, "/lists/g/rows/1", #"{"cells": {"qty": 5, "note": null}, "style": "muted"}"#,
                headers: headers(Self.merge, ["If-Match": "\"1\""]))
            #expect(merged.status == 200)
            #expect(merged.header("ETag") == "\"2\"")
            #expect(try json(merged) == (try JSONValue(parsing: Array(#"{"id": "g", "version": 2, "rows": 3}"#.utf8))))
            let row = try client.get("/lists/g/rows/1")
            #expect(row.body == #"{"key":"1","section":"a","cells":{"name":"one","qty":5},"style":"muted"}"# + "\n")
            #expect(row.header("ETag") == "\"2\"")
            #expect(try client.send(.patch, "/lists/g/rows/3", #"{"href": null}"#, headers: Self.merge).status == 200)
            #expect(
                try client.get("/lists/g/rows/3").body == #"{"key":"3","section":"b","cells":{"name":"three"},"style":"default"}"# + "\n")
            // The key cannot change; the same key may be given.
            #expect(try client.send(.patch, "/lists/g/rows/1", #"{"key": "9"}"#, headers: Self.merge).status == 422)
            #expect(try client.send(.patch, "/lists/g/rows/1", #"{"key": "1", "cells": {"qty": 6}}"#, headers: Self.merge).status == 200)
            #expect(try client.send(.patch, "/lists/g/rows/1", #"{"cells": {"qty": "many"}}"#, headers: Self.merge).status == 422)
            #expect(try client.send(.patch, "/lists/g/rows/1", #"[1]"#, headers: Self.merge).status == 422)
            #expect(try client.send(.patch, "/lists/g/rows/9", #"{"cells": {"qty": 1}}"#, headers: Self.merge).status == 404)
            let unsupported = try client.send(
                .patch, "/lists/g/rows/1", #"{"cells": {"qty": 1}}"#,
                headers: ["Content-Type": "application/json"])
            #expect(unsupported.status == 415)
            #expect(unsupported.header("Accept-Patch") == "application/merge-patch+json")
        }
    }

    @Test func moveByKey() throws {
        try withList { server in
            let client = server.client
            func order() throws -> [[String]] {
                let doc = try #require(try server.document("g")).json
                return (doc["/sections"]?.arrayValue ?? []).map { ($0["/rows"]?.arrayValue ?? []).map { $0["/key"]!.stringValue! } }
            }
            let moved = try client.send(.post, "/lists/g/rows/1/move?after=2", headers: ["If-Match": "\"1\""])
            #expect(moved.status == 200)
            #expect(moved.header("ETag") == "\"2\"")
            #expect(try order() == [["2", "1"], ["3"]])
            #expect(try client.get("/lists/g/rows/1").header("ETag") == "\"2\"", "a moved row takes the write's version")
            #expect(try client.get("/lists/g/rows/2").header("ETag") == "\"1\"")
            #expect(try client.send(.post, "/lists/g/rows/3/move?before=2").status == 200)
            #expect(try order() == [["3", "2", "1"], []])
            #expect(try client.send(.post, "/lists/g/rows/2/move?section=b").status == 200)
            #expect(try order() == [["3", "1"], ["2"]])
            #expect(try client.get("/lists/g/rows/2").body == #"{"key":"2","section":"b","cells":{"name":"two"},"style":"default"}"# + "\n")
            for (target, status) in [
                ("/lists/g/rows/9/move?section=a", 404), ("/lists/g/rows/1/move?before=9", 404),
                ("/lists/g/rows/1/move?section=z", 404), ("/lists/g/rows/1/move", 400),
                ("/lists/g/rows/1/move?before=3&section=a", 400), ("/lists/g/rows/1/move?after=1", 422),
                ("/lists/nope/rows/1/move?section=a", 404),
            ] {
                #expect(try client.send(.post, target).status == status, "\(target)")
            }
            // The store agrees after a restart.
            let reloaded = try ListRegistry(store: server.store)
            #expect(reloaded.snapshot(id: "g")?.document == server.registry.snapshot(id: "g")?.document)
            #expect(reloaded.snapshot(id: "g")?.list.version(ofRow: "2") == 4)
        }
    }

    @Test func pagesAndLiveRowsCarryDataVersion() throws {
        try withList { server in
            let client = server.client
            let html = try server.subscribe("g", view: .html)
            let json = try server.subscribe("g", view: .json)
            try server.pump(html)
            try server.pump(json)
            let page = try client.get("/lists/g", accept: "text/html").body
            #expect(page.contains(#"<tr data-row="1" data-version="1">"#))
            #expect(page.contains(#"<tr data-row="3" data-version="1" class="linked">"#))
            let fragment = try client.get("/lists/g/rows?limit=1", accept: "text/html").body
            #expect(fragment.contains(#"<tr data-row="1" data-version="1">"#))
            #expect(html.doc?.serializedText.contains(#"data-row=\"2\" data-version=\"1\""#) == true)

            #expect(try client.send(.patch, "/lists/g/rows/2", #"{"cells": {"qty": 7}}"#, headers: Self.merge).status == 200)
            #expect(try client.send(.post, "/lists/g/rows/1/move?before=3").status == 200)
            try server.pump(html)
            try server.pump(json)
            #expect(html.events.compactMap(\.id).suffix(2) == [2, 3])
            #expect(json.events.compactMap(\.id).suffix(2) == [2, 3])
            let text = try #require(html.doc?.serializedText)
            #expect(text.contains(#"data-row=\"2\" data-version=\"2\""#), "the live patch carries the new data-version")
            #expect(text.contains(#"data-row=\"1\" data-version=\"3\""#))
            #expect(text.contains(#"data-row=\"3\" data-version=\"1\""#))
            #expect(json.doc == (try #require(try server.document("g")).json))
            #expect(html.doc == (try server.freshView(of: html)))
            #expect(try client.get("/lists/g", accept: "text/html").body.contains(#"<tr data-row="2" data-version="2">"#))
        }
    }
}
