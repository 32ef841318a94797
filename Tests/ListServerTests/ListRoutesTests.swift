import HTTPServer
import ListModel
import ListServerTesting
import Testing

@testable import ListServerHTTP
@testable import ListService

@Suite("Lists API, in process")
struct ListRoutesTests {
    let client: RouterClient

    init() throws { client = RouterClient(context: try .inMemory()) }

    let groceries = """
        {"title": "Groceries", "sections": [{"key": "fruit", "header": "Fruit", "rows": [
          {"key": "apple", "cells": {"text": "Apples"}}, {"key": "pear", "cells": {"text": "Pears"}}]}]}
        """

    func document(_ id: String) throws -> JSONValue {
        try JSONValue(parsing: Array(client.get("/lists/\(id)", accept: "application/json").body.utf8))
    }

    func rowKeys(_ id: String) throws -> [String] {
        try ListDocument(json: document(id)).sections.flatMap { $0.rows.map(\.key) }
    }

    @Test func putCreatesThenReplacesWithVersionsInETags() throws {
        let created = try client.put("/lists/g", json: groceries)
        #expect(created.status == 201)
        #expect(created.header("ETag") == "\"1\"")
        #expect(created.header("Location") == "/lists/g")
        let replaced = try client.put("/lists/g", json: #"{"title": "Shopping"}"#)
        #expect(replaced.status == 200)
        #expect(replaced.header("ETag") == "\"2\"")
        #expect(try document("g")["/title"] == "Shopping")
    }

    @Test func getReturnsTheCanonicalDocument() throws {
        try client.put("/lists/g", json: groceries)
        let json = try document("g")
        #expect(json["/columns"] == [["key": "text", "title": "", "kind": "text"]])
        #expect(json["/sections/0/footer"] == .null)
        #expect(json["/sections/0/rows/0/style"] == "default")
    }

    @Test func getWithoutJSONAcceptIsTheHTMLPage() throws {
        try client.put("/lists/g", json: groceries)
        let page = try client.get("/lists/g", accept: "text/html,*/*;q=0.8")
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.body.contains(#"data-list="g""#))
        #expect(page.body.contains(#"data-version="1""#))
        #expect(page.body.contains(#"data-row="apple""#))
        #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(try client.get("/lists/g").header("Content-Type") == "text/html; charset=utf-8", "curl's */* gets HTML")
    }

    @Test func ifNoneMatchGivesNotModifiedUntilTheNextWrite() throws {
        try client.put("/lists/g", json: groceries)
        let etag = try #require(try client.get("/lists/g", accept: "application/json").header("ETag"))
        let cached = try client.send(.get, "/lists/g", headers: ["Accept": "application/json", "If-None-Match": etag])
        #expect(cached.status == 304)
        try client.put("/lists/g", json: groceries)
        let fresh = try client.send(.get, "/lists/g", headers: ["Accept": "application/json", "If-None-Match": etag])
        #expect(fresh.status == 200)
    }

    @Test func theGzipAnswersTagNamesTheSameVersionInPreconditions() throws {
        try client.put("/lists/g", json: groceries)
        #expect(try client.put("/lists/g", json: groceries, headers: ["If-Match": "\"1-gzip\""]).status == 200)
        #expect(try client.put("/lists/g", json: groceries, headers: ["If-Match": "\"1-gzip\""]).status == 412)
        #expect(
            try client.put("/lists/g", json: groceries, headers: ["If-Match": "W/\"2-gzip\""]).status == 412,
            "If-Match compares strongly: a weak tag never matches")
        #expect(try client.patch("/lists/g", "[]", headers: ["If-Match": "\"2-gzip\""]).status == 200)
        #expect(try client.put("/lists/g", json: groceries, headers: ["If-None-Match": "\"3-gzip\""]).status == 412)
        #expect(try client.send(.delete, "/lists/g", headers: ["If-Match": "\"3-gzip\""]).status == 204)
    }

    @Test func theIndexIsPagedWithACursorAndValidated() throws {
        for id in ["c", "a", "b"] { try client.put("/lists/\(id)", json: groceries) }
        let first = try client.get("/lists?limit=2")
        let json = try JSONValue(parsing: Array(first.body.utf8))
        #expect(json["/lists/0/id"] == "a" && json["/lists/1/id"] == "b")
        #expect(json["/next"] == "b")
        #expect(first.header("Link") == "</lists?after=b&limit=2>; rel=\"next\"")
        let last = try client.get("/lists?after=b&limit=2")
        #expect(
            try JSONValue(parsing: Array(last.body.utf8)) == [
                "lists": [["id": "c", "title": "Groceries", "rows": 2, "version": 1]],
                "next": .null,
            ])
        #expect(last.header("Link") == nil)
        #expect(
            try client.get("/lists?after=zzz").body == "{\"lists\":[],\"next\":null}\n",
            "a cursor past the end (the answer ends with a line feed)")
        #expect(try client.get("/lists?limit=0").status == 400)
        #expect(try client.get("/lists?limit=501").status == 400)
        #expect(try client.get("/lists?after=-x").status == 400, "after is a list id")

        let html = try client.get("/?limit=2")
        #expect(html.body.contains(#"<a rel="next" href="/?after=b&amp;limit=2">"#))
        #expect(html.header("Link") == "</?after=b&limit=2>; rel=\"next\"")
        #expect(html.header("ETag") != first.header("ETag"), "HTML and JSON have their own tags")
        #expect(!(try client.get("/").body.contains(#"rel="next""#)), "500 lists a page by default")

        let etag = try #require(first.header("ETag"))
        let cached = try client.send(.get, "/lists?limit=2", headers: ["If-None-Match": etag])
        #expect(cached.status == 304)
        #expect(cached.header("ETag") == etag && cached.header("Cache-Control") == "no-cache")
        let htmlTag = try #require(html.header("ETag"))
        #expect(try client.send(.get, "/?limit=2", headers: ["If-None-Match": htmlTag]).status == 304)
        try client.put("/lists/a", json: groceries)
        #expect(try client.send(.get, "/lists?limit=2", headers: ["If-None-Match": etag]).status == 200, "a write changes the tag")
        #expect(try client.send(.get, "/?limit=2", headers: ["If-None-Match": htmlTag]).status == 200)
        let afterWrite = try #require(try client.get("/lists?after=b&limit=2").header("ETag"))
        try client.put("/lists/d", json: groceries)
        #expect(try client.get("/lists?after=b&limit=2").header("ETag") != afterWrite, "a list created in the page's range")
    }

    @Test func theContentSecurityPolicyAllowsNoPlainHTTP() throws {
        try client.put("/lists/g", json: groceries)
        for target in ["/lists/g", "/"] {
            let policy = try #require(try client.get(target).header("Content-Security-Policy"))
            #expect(!policy.contains("http:"), "\(target): \(policy)")
            #expect(policy.contains("img-src 'self' https: data:"))
        }
    }

    @Test func ifMatchGuardsEveryWrite() throws {
        try client.put("/lists/g", json: groceries)
        #expect(try client.put("/lists/g", json: groceries, headers: ["If-Match": "\"7\""]).status == 412)
        #expect(try client.patch("/lists/g", "[]", headers: ["If-Match": "\"7\""]).status == 412)
        #expect(try client.send(.delete, "/lists/g/rows/apple", headers: ["If-Match": "\"7\""]).status == 412)
        #expect(try client.send(.delete, "/lists/g", headers: ["If-Match": "\"7\""]).status == 412)
        #expect(try client.put("/lists/new", json: groceries, headers: ["If-Match": "\"1\""]).status == 412)
        #expect(try client.put("/lists/g", json: groceries, headers: ["If-None-Match": "*"]).status == 412)
        #expect(try client.patch("/lists/g", "[]", headers: ["If-Match": "\"1\""]).status == 200)
        #expect(try client.get("/lists/g", accept: "application/json").header("ETag") == "\"2\"")
    }

    @Test func patchAppliesAtomically() throws {
        try client.put("/lists/g", json: groceries)
        let moved = try client.patch("/lists/g", #"[{"op": "move", "from": "/sections/0/rows/1", "path": "/sections/0/rows/0"}]"#)
        #expect(moved.status == 200)
        #expect(try rowKeys("g") == ["pear", "apple"])
        let failing = try client.patch(
            "/lists/g",
            """
            [{"op": "remove", "path": "/sections/0/rows/0"}, {"op": "test", "path": "/title", "value": "nope"}]
            """)
        #expect(failing.status == 409)
        #expect(failing.header("Content-Type") == "application/problem+json")
        #expect(try rowKeys("g") == ["pear", "apple"], "the first op was rolled back")
        #expect(try client.get("/lists/g", accept: "application/json").header("ETag") == "\"2\"")
    }

    @Test func badInputGetsTheRightStatusAndChangesNothing() throws {
        try client.put("/lists/g", json: groceries)
        #expect(try client.patch("/lists/g", "{}").status == 400, "a patch is an array")
        #expect(try client.patch("/lists/g", #"[{"op": "jump", "path": ""}]"#).status == 400)
        #expect(
            try client.patch("/lists/g", #"[{"op": "add", "path": "/sections/0/rows/0/href", "value": "javascript:alert(1)"}]"#).status
                == 422)
        #expect(try client.patch("/lists/g", #"[{"op": "move", "from": "/sections/0", "path": "/sections/0/rows/0"}]"#).status == 409)
        #expect(try client.put("/lists/g", json: "{not json").status == 400)
        #expect(try client.put("/lists/g", json: #"{"title": "a", "extra": 1}"#).status == 422)
        #expect(try client.put("/lists/g", json: "[\u{FF}]").status == 400)
        #expect(try client.send(.put, "/lists/g", groceries, headers: ["Content-Type": "text/plain"]).status == 415)
        #expect(try client.send(.patch, "/lists/g", "[]", headers: ["Content-Type": "application/json"]).status == 415)
        #expect(try client.put("/lists/-bad", json: groceries).status == 400)
        #expect(try client.patch("/lists/missing", "[]").status == 404)
        #expect(try client.get("/lists/g", accept: "application/json").header("ETag") == "\"1\"")
        #expect(try rowKeys("g") == ["apple", "pear"])
    }

    @Test func problemDetailNamesThePointer() throws {
        let answer = try client.put(
            "/lists/g", json: #"{"title": "t", "sections": [{"key": "s", "rows": [{"key": "r", "cells": {"nope": 1}}]}]}"#)
        #expect(answer.status == 422)
        #expect(answer.body.contains("/sections/0/rows/0/cells/nope"))
    }

    @Test func deleteRemovesTheList() throws {
        try client.put("/lists/g", json: groceries)
        #expect(try client.send(.delete, "/lists/g").status == 204)
        let gone = try client.get("/lists/g", accept: "application/json")
        #expect(gone.status == 410)
        #expect(gone.body.contains(#""detail":"List \"g\" was deleted.""#))
        #expect(try client.send(.delete, "/lists/g").status == 410)
        #expect(try client.get("/lists/never").status == 404, "a list that never existed is still 404")
        #expect(try client.put("/lists/g", json: groceries).status == 201, "the id is free again")
    }

    @Test func listsIndexInJSONAndHTML() throws {
        try client.put("/lists/b", json: groceries)
        try client.put("/lists/a", json: #"{"title": "<Empty>"}"#)
        let json = try JSONValue(parsing: Array(client.get("/lists").body.utf8))
        #expect(
            json == [
                "lists": [
                    ["id": "a", "title": "<Empty>", "rows": 0, "version": 1],
                    ["id": "b", "title": "Groceries", "rows": 2, "version": 1],
                ], "next": .null,
            ])
        let html = try client.get("/lists", accept: "text/html").body
        #expect(html.contains("/lists/a"))
        #expect(html.contains("&lt;Empty&gt;"))
        #expect(!html.contains("<Empty>"))
        #expect(try client.get("/").body.contains("/lists/b"))
    }

    @Test func tokenProtectsWritesButNotReads() throws {
        let client = RouterClient(context: try .inMemory(token: "s3cret"))
        #expect(try client.put("/lists/g", json: groceries).status == 401)
        #expect(try client.put("/lists/g", json: groceries, headers: ["Authorization": "Bearer wrong"]).status == 401)
        let denied = try client.put("/lists/g", json: groceries, headers: ["Authorization": "Bearer wrong"])
        #expect(denied.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        #expect(try client.put("/lists/g", json: groceries, headers: ["Authorization": "Bearer s3cret"]).status == 201)
        #expect(try client.get("/lists/g").status == 200)
        #expect(try client.send(.delete, "/lists/g").status == 401)
    }

    @Test func limitsOnListsAndRows() throws {
        let client = RouterClient(context: try .inMemory(maxLists: 1, maxRows: 2))
        #expect(try client.put("/lists/a", json: groceries).status == 201)
        #expect(try client.put("/lists/b", json: groceries).status == 507)
        #expect(try client.post("/lists/a/sections/fruit/rows", json: #"[{"key": "fig"}]"#).status == 422)
        #expect(
            try client.put(
                "/lists/a", json: #"{"title": "t", "sections": [{"key": "s", "rows": [{"key": "1"}, {"key": "2"}, {"key": "3"}]}]}"#
            ).status == 422)
    }
}

@Suite("Lists deleted and created again")
struct RecreatedListTests {
    @Test func versionsContinueAfterADeletion() throws {
        let client = RouterClient(context: try .inMemory())
        try client.put("/lists/x", json: #"{"title": "Old"}"#)
        try client.put("/lists/x", json: #"{"title": "Old"}"#)
        #expect(try client.send(.delete, "/lists/x").status == 204)
        let created = try client.put("/lists/x", json: #"{"title": "New"}"#)
        #expect(created.status == 201)
        #expect(created.header("ETag") == "\"4\"", "version 3 was the deletion; an old If-Match or Last-Event-ID cannot match the new list")
        #expect(try client.put("/lists/x", json: #"{"title": "New"}"#, headers: ["If-Match": "\"2\""]).status == 412)
    }
}

@Suite("Conditional writes (RFC 9110 section 13)")
struct ConditionalWriteTests {
    let client: RouterClient

    init() throws {
        client = RouterClient(context: try .inMemory())
        try client.put("/lists/c", json: #"{"title": "C"}"#)  // version 1
    }

    func put(_ id: String, _ headers: HTTPHeaders) throws -> Int {
        try client.put("/lists/\(id)", json: #"{"title": "C"}"#, headers: headers).status
    }

    @Test func ifMatchSucceedsWhenAnyTagMatchesExactly() throws {
        #expect(try put("c", ["If-Match": "\"5\", \"1\""]) == 200)
        #expect(try put("c", ["If-Match": "\"02\""]) == 412, "tags compare as strings: \"02\" is not \"2\"")
        #expect(try put("c", ["If-Match": "W/\"2\""]) == 412, "a weak tag never matches If-Match")
        #expect(try put("c", ["If-Match": "\"2\""]) == 200)
    }

    @Test func ifMatchStarNeedsTheListToExist() throws {
        #expect(try put("c", ["If-Match": "*"]) == 200)
        #expect(try put("absent", ["If-Match": "*"]) == 412)
        #expect(try client.get("/lists/absent").status == 404)
    }

    @Test func ifNoneMatchRefusesTheCurrentVersionOrAnyList() throws {
        #expect(try put("c", ["If-None-Match": "\"1\""]) == 412)
        #expect(try put("c", ["If-None-Match": "W/\"1\""]) == 412)
        #expect(try put("c", ["If-None-Match": "\"9\""]) == 200)
        #expect(try put("c", ["If-None-Match": "*"]) == 412)
        #expect(try put("fresh", ["If-None-Match": "*"]) == 201)
    }

    @Test func malformedConditionsAre400() throws {
        #expect(try put("c", ["If-Match": "1"]) == 400)
        #expect(try put("c", ["If-None-Match": "\"1"]) == 400)
        #expect(try client.get("/lists/c", accept: "application/json").header("ETag") == "\"1\"", "nothing changed")
    }

    @Test func only415OnPatchAdvertisesAcceptPatch() throws {
        let put = try client.send(.put, "/lists/c", "{}", headers: ["Content-Type": "text/plain"])
        #expect(put.status == 415)
        #expect(put.header("Accept-Patch") == nil)
        let patch = try client.send(.patch, "/lists/c", "[]", headers: ["Content-Type": "application/json"])
        #expect(patch.header("Accept-Patch") == "application/json-patch+json")
    }
}
