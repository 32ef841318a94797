import HTTPServer
import ListModel
import ListServerTesting
import Testing

@testable import ListServerHTTP
@testable import ListService

@Suite("Row endpoints, in process")
struct RowRoutesTests {
    let client: RouterClient

    init() throws {
        client = RouterClient(context: try .inMemory())
        try client.put(
            "/lists/g",
            json: """
                {"title": "G", "sections": [
                  {"key": "a", "rows": [{"key": "1"}, {"key": "2"}]},
                  {"key": "b/c", "rows": [{"key": "x y"}]}]}
                """)
    }

    func keys() throws -> [[String]] {
        let json = try JSONValue(parsing: Array(client.get("/lists/g", accept: "application/json").body.utf8))
        return try ListDocument(json: json).sections.map { $0.rows.map(\.key) }
    }

    @Test func appendsInsertsBeforeAndAfter() throws {
        #expect(try client.post("/lists/g/sections/a/rows", json: #"[{"key": "3"}, {"key": "4"}]"#).status == 200)
        #expect(try client.post("/lists/g/sections/a/rows?before=1", json: #"[{"key": "0"}]"#).status == 200)
        #expect(try client.post("/lists/g/sections/a/rows?after=2", json: #"[{"key": "2.5"}]"#).status == 200)
        #expect(try keys()[0] == ["0", "1", "2", "2.5", "3", "4"])
    }

    @Test func keysInPathsArePercentDecoded() throws {
        #expect(try client.post("/lists/g/sections/b%2Fc/rows", json: #"[{"key": "z"}]"#).status == 200)
        #expect(try client.send(.delete, "/lists/g/rows/x%20y").status == 204)
        #expect(try keys()[1] == ["z"])
    }

    @Test func replaceKeepsThePosition() throws {
        let answer = try client.put("/lists/g/rows/1", json: #"{"cells": {"text": "one"}, "style": "muted"}"#)
        #expect(answer.status == 200)
        #expect(answer.header("ETag") == "\"2\"")
        #expect(try keys()[0] == ["1", "2"])
        let json = try JSONValue(parsing: Array(client.get("/lists/g", accept: "application/json").body.utf8))
        #expect(json["/sections/0/rows/0"] == ["key": "1", "cells": ["text": "one"], "style": "muted"])
    }

    @Test func errorsAreSpecific() throws {
        #expect(try client.post("/lists/g/sections/zz/rows", json: #"[{"key": "n"}]"#).status == 404)
        #expect(try client.post("/lists/g/sections/a/rows?after=x%20y", json: #"[{"key": "n"}]"#).status == 404)
        #expect(try client.post("/lists/g/sections/a/rows?after=1&before=2", json: #"[{"key": "n"}]"#).status == 400)
        #expect(try client.post("/lists/g/sections/a/rows", json: #"[{"key": "x y"}]"#).status == 422, "row keys are unique in the list")
        #expect(try client.post("/lists/g/sections/a/rows", json: #"{"key": "n"}"#).status == 422, "the body is an array")
        #expect(try client.post("/lists/g/sections/a/rows", json: #"[{"key": "n", "cells": {"other": "x"}}]"#).status == 422)
        #expect(try client.put("/lists/g/rows/1", json: #"{"key": "2"}"#).status == 422, "the body may not rename the row")
        #expect(try client.put("/lists/g/rows/nope", json: #"{}"#).status == 404)
        #expect(try client.send(.delete, "/lists/g/rows/nope").status == 404)
        #expect(try client.post("/lists/nope/sections/a/rows", json: "[]").status == 404)
        #expect(try keys() == [["1", "2"], ["x y"]])
    }
}
