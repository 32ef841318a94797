import HTTPServer
import ListServerTesting
import Testing

@testable import ListServerHTTP
@testable import ListService

/// The page tells the client whether its reader may write (API.md section 10, "The page"): on a
/// server without tokens, and to a reader who opened an edit link of that list; never otherwise.
@Suite("The page offers editing only to a writer")
struct EditablePageTests {
    private static let list =
        #"{"title": "T", "columns": [{"key": "name"}, {"key": "qty", "kind": "number"}], "sections": [{"key": "s", "rows": [{"key": "r1", "cells": {"qty": 1}}]}]}"#

    private static func client(token: String?) throws -> RouterClient {
        let client = RouterClient(context: try .inMemory(token: token))
        var headers = HTTPHeaders()
        if let token { headers["Authorization"] = "Bearer \(token)" }
        #expect(try client.put("/lists/team-a", json: list, headers: headers).status == 201)
        #expect(try client.put("/lists/team-b", json: list, headers: headers).status == 201)
        return client
    }

    private static func link(_ client: RouterClient, _ id: String, right: String) throws -> String {
        let made = try client.send(.post, "/lists/\(id)/links?right=\(right)", headers: ["Authorization": "Bearer t"])
        #expect(made.status == 201)
        return try #require(made.body.split(separator: "key=").last.map { String($0.prefix { $0 != "\"" }) })
    }

    @Test func aServerWithoutTokensOffersEditingToEveryone() throws {
        let page = try Self.client(token: nil).get("/lists/team-a")
        #expect(page.status == 200)
        #expect(page.body.contains(#"data-editable="true""#))
        #expect(page.body.contains(#"data-edit-columns="[{&quot;key&quot;:&quot;name&quot;,&quot;kind&quot;:&quot;text&quot;},"#))
        #expect(page.body.contains("&quot;qty&quot;,&quot;kind&quot;:&quot;number&quot;"), "with each column's key and kind")
        #expect(page.header("ETag") == #""1-html""#)
    }

    @Test func aTokenServerOffersEditingOnlyThroughAnEditLinkOfThatList() throws {
        let client = try Self.client(token: "t")
        let plain = try client.get("/lists/team-a")
        #expect(plain.status == 200 && !plain.body.contains("data-editable"), "a reader without a key may not write")
        #expect(!plain.body.contains("data-edit-columns"))

        let viewKey = try Self.link(client, "team-a", right: "read")
        let viewed = try client.get("/lists/team-a?key=\(viewKey)")
        #expect(viewed.status == 200 && !viewed.body.contains("data-editable"), "a view link only reads")

        let editKey = try Self.link(client, "team-a", right: "write")
        let edited = try client.get("/lists/team-a?key=\(editKey)")
        #expect(edited.status == 200 && edited.body.contains(#"data-editable="true""#), "an edit link may write")
        #expect(edited.header("ETag") == #""1-html-edit""#, "its own validator: the page without the right differs")
        #expect(edited.header("Cache-Control") == "private, no-cache")
        #expect(plain.header("ETag") == #""1-html""#)

        let revalidated = try client.send(.get, "/lists/team-a?key=\(editKey)", headers: ["If-None-Match": #""1-html""#])
        #expect(revalidated.status == 200, "a page held without the right is not the editable one")

        let view = try client.get("/lists/team-a?sort=qty&key=\(editKey)")
        #expect(view.status == 200 && view.body.contains(#"data-editable="true""#), "a view's page too")
        #expect(view.header("ETag")?.hasSuffix(#"-edit""#) == true, "with its own tag")
        let plainView = try client.get("/lists/team-a?sort=qty")
        #expect(plainView.status == 200 && !plainView.body.contains("data-editable"), "but not without the key")
        #expect(plainView.header("ETag") != view.header("ETag"))

        let other = try client.get("/lists/team-b?key=\(editKey)")
        #expect(other.status == 200 && !other.body.contains("data-editable"), "another list's edit link writes nothing here")
        let forged = editKey.replacingOccurrences(of: ".w.", with: ".")
        #expect(try !client.get("/lists/team-a?key=\(forged)").body.contains("data-editable"), "the right is signed")
    }
}
