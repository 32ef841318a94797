import Foundation
import HTMLRenderer
import HTTPServer
import ListServerTesting
import ListStore
import Testing

@testable import ListServerHTTP
@testable import ListService

/// Scoped access through the router, in process (the full matrix against a real server is
/// Tests/integration/test_access.py).
@Suite("Access through the routes")
struct AccessRoutesTests {
    private static let secret = Array("in-process secret, at least 32 bytes long".utf8)
    private static let tokens = """
        reader read:team-*
        writer write:team-a
        ops admin
        """

    private static func client(private isPrivate: Bool) throws -> RouterClient {
        let store = try SQLiteStore(path: ":memory:")
        let hub = LiveHub(renderer: HTMLRenderer())
        let registry = try ListRegistry(store: store, publish: { hub.receive($0) })
        let policy = AccessPolicy(
            master: "master", tokens: try TokenFile.parse(tokens), tokensPath: "unused",
            isPrivate: isPrivate, viewLinkSecret: secret)
        let context = ServerContext(
            assets: try StaticFiles(directory: PublicDirectory.locate(explicit: nil)),
            registry: registry, hub: hub, authorization: Authorization(policy: policy))
        let client = RouterClient(context: context)
        for id in ["team-a", "team-b", "other"] {
            try client.put(
                "/lists/\(id)", json: #"{"title": "T", "sections": [{"key": "s", "rows": [{"key": "r1"}, {"key": "r2"}]}]}"#,
                headers: bearer("master"))
        }
        return client
    }

    private static func bearer(_ token: String) -> HTTPHeaders { ["Authorization": "Bearer \(token)"] }

    @Test func writesNeedWriteOnTheList() throws {
        let client = try Self.client(private: false)
        let body = #"{"title": "New"}"#
        #expect(try client.put("/lists/team-a", json: body).status == 401)
        #expect(try client.put("/lists/team-a", json: body, headers: Self.bearer("nobody")).status == 401)
        #expect(try client.put("/lists/team-a", json: body, headers: Self.bearer("reader")).status == 403)
        #expect(try client.put("/lists/team-a", json: body, headers: Self.bearer("ops")).status == 403)
        let wrongList = try client.put("/lists/team-b", json: body, headers: Self.bearer("writer"))
        #expect(wrongList.status == 403)
        #expect(wrongList.header("WWW-Authenticate") == #"Bearer realm="list-server", error="insufficient_scope", scope="write:team-b""#)
        #expect(try client.put("/lists/team-a", json: body, headers: Self.bearer("writer")).status == 200)
        #expect(try client.put("/lists/bad..id!", json: body, headers: Self.bearer("writer")).status == 400)
        #expect(try client.put("/lists/team-a", json: body, headers: Self.bearer("master")).status == 200)
    }

    @Test func publicReadsIgnoreCredentials() throws {
        let client = try Self.client(private: false)
        #expect(try client.get("/lists/other", accept: "application/json").status == 200)
        #expect(try client.send(.get, "/lists/other?key=junk").status == 200)
        #expect(try client.send(.get, "/lists/other", headers: Self.bearer("nobody")).status == 200)
        #expect(try client.get("/metrics").status == 200)
    }

    @Test func privateReadsNeedReadOrTheListsViewLink() throws {
        let client = try Self.client(private: true)
        #expect(try client.get("/lists/team-a").status == 401)
        #expect(try client.send(.get, "/lists/team-a", headers: Self.bearer("reader")).status == 200)
        #expect(try client.send(.get, "/lists/other", headers: Self.bearer("reader")).status == 403)
        #expect(try client.send(.get, "/lists/nope", headers: Self.bearer("writer")).status == 403)
        #expect(try client.send(.get, "/lists/team-nope", headers: Self.bearer("reader")).status == 404)

        let links = ViewLinks(secret: Self.secret)
        let key = links.key(for: "other", expiry: Int(Date().timeIntervalSince1970) + 60)
        #expect(try client.send(.get, "/lists/other?key=\(key)").status == 200)
        #expect(try client.send(.get, "/lists/other/rows?key=\(key)").status == 200)
        #expect(try client.send(.get, "/lists/team-a?key=\(key)").status == 403)
        #expect(try client.send(.get, "/lists/other?key=\(links.key(for: "other", expiry: 1))").status == 403)
        #expect(try client.send(.delete, "/lists/other?key=\(key)").status == 403, "a view link is a credential that only reads")
    }

    /// Edit links (`right=write`, API.md section 10): the key writes its one list, and nothing else.
    @Test func editLinksWriteTheirListOnly() throws {
        for isPrivate in [false, true] {
            let client = try Self.client(private: isPrivate)
            let made = try client.send(.post, "/lists/team-a/links?right=write", headers: Self.bearer("writer"))
            #expect(made.status == 201)
            let key = try #require(made.body.split(separator: "key=").last.map { String($0.prefix { $0 != "\"" }) })
            #expect(key.contains(".w."), "an edit link's key names its right")
            let row = #"{"key": "r1", "cells": {}}"#
            #expect(try client.put("/lists/team-a/rows/r1?key=\(key)", json: row).status == 200, "it writes its list")
            #expect(try client.send(.get, "/lists/team-a?key=\(key)").status == 200, "and reads it")
            let other = try client.put("/lists/team-b/rows/r1?key=\(key)", json: row)
            #expect(other.status == 403 && other.body.contains("not valid for list"), "not another list")
            #expect(try client.send(.post, "/lists/team-a/links?key=\(key)").status == 401, "it makes no links")

            let reader = try client.send(.post, "/lists/team-a/links", headers: Self.bearer("writer"))
            let readKey = try #require(reader.body.split(separator: "key=").last.map { String($0.prefix { $0 != "\"" }) })
            let refused = try client.put("/lists/team-a/rows/r1?key=\(readKey)", json: row)
            #expect(refused.status == 403 && refused.body.contains("only reads"), "a view link does not write")

            let links = ViewLinks(secret: Self.secret)
            let expired = links.key(for: "team-a", expiry: 1, right: .write)
            #expect(try client.put("/lists/team-a/rows/r1?key=\(expired)", json: row).status == 403)
            let forged = key.replacingOccurrences(of: ".w.", with: ".")
            #expect(try client.put("/lists/team-a/rows/r1?key=\(forged)", json: row).status == 403, "the right is signed")
            #expect(try client.send(.post, "/lists/team-a/links?right=admin", headers: Self.bearer("writer")).status == 400)
        }
    }

    /// A browser's navigation to an error gets a page that says what happened; API clients keep
    /// problem+json (issue 26).
    @Test func browsersNavigatingToAnErrorGetAnHTMLPage() throws {
        let client = try Self.client(private: true)
        let navigate: HTTPHeaders = ["Sec-Fetch-Mode": "navigate", "Accept": "text/html,application/xhtml+xml,*/*;q=0.8"]

        let privateIndex = try client.send(.get, "/", headers: navigate)
        #expect(privateIndex.status == 401)
        #expect(privateIndex.header("Content-Type") == "text/html; charset=utf-8")
        #expect(privateIndex.header("WWW-Authenticate")?.hasPrefix("Bearer") == true, "the challenge stays")
        #expect(privateIndex.body.contains("The lists on this server are private"))
        #expect(!privateIndex.body.contains("href=\"/\""), "no link to an index that refuses them too")

        var navigateAsReader = navigate
        navigateAsReader["Authorization"] = "Bearer reader"
        let missing = try client.send(.get, "/lists/team-nope", headers: navigateAsReader)
        #expect(missing.status == 404)
        #expect(missing.body.contains("There is no list &quot;team-nope&quot;.") && missing.body.contains(">All lists</a>"))
        #expect(missing.header("Content-Security-Policy") != nil)

        // The same errors for an API client, and for the page's own fetches: problem+json.
        #expect(try client.get("/").header("Content-Type") == "application/problem+json")
        let fetch = try client.send(
            .get, "/lists/team-nope/rows",
            headers: ["Accept": "text/html", "Sec-Fetch-Mode": "cors", "Authorization": "Bearer reader"])
        #expect(fetch.status == 404 && fetch.header("Content-Type") == "application/problem+json")
        #expect(try client.send(.delete, "/lists/team-a", headers: navigate).header("Content-Type") == "application/problem+json")

        // A page opened with a view link does not lead its reader to the index they cannot open.
        let key = ViewLinks(secret: Self.secret).key(for: "other", expiry: Int(Date().timeIntervalSince1970) + 60)
        #expect(!(try client.send(.get, "/lists/other?key=\(key)").body.contains(">All lists</a>")))
        #expect(try client.send(.get, "/lists/team-a", headers: Self.bearer("reader")).body.contains(">All lists</a>"))
    }

    @Test func privateIndexesShowOnlyReadableLists() throws {
        let client = try Self.client(private: true)
        #expect(try client.get("/lists").status == 401)
        #expect(try client.send(.get, "/lists", headers: Self.bearer("reader")).body.contains(#""id":"team-b""#))
        #expect(!(try client.send(.get, "/lists", headers: Self.bearer("reader")).body.contains(#""id":"other""#)))
        #expect(try client.send(.get, "/lists", headers: Self.bearer("ops")).body == "{\"lists\":[],\"next\":null}\n")
        let page = try client.send(.get, "/", headers: Self.bearer("writer")).body
        #expect(page.contains("/lists/team-a") && !page.contains("/lists/team-b"))
    }

    @Test func aPaddedBearerTokenIsTrimmed() throws {
        let client = try Self.client(private: true)
        #expect(try client.send(.get, "/lists/team-a", headers: ["Authorization": "Bearer reader \t"]).status == 200)
    }

    @Test func answersThatNeedACredentialOrAKeyArePrivate() throws {
        let closed = try Self.client(private: true)
        let reader = Self.bearer("reader")
        for (target, accept) in [
            ("/lists/team-a", "application/json"), ("/lists/team-a", "text/html"),
            ("/lists/team-a/rows", "application/json"), ("/lists", "application/json"), ("/", "text/html"),
        ] {
            var headers = reader
            headers["Accept"] = accept
            let answer = try closed.send(.get, target, headers: headers)
            #expect(answer.status == 200)
            #expect(answer.header("Cache-Control") == "private, no-cache", "\(target) as \(accept)")
        }
        let links = ViewLinks(secret: Self.secret)
        let key = links.key(for: "other", expiry: Int(Date().timeIntervalSince1970) + 60)
        #expect(try closed.send(.get, "/lists/other?key=\(key)").header("Cache-Control") == "private, no-cache")
        var notModified = reader
        notModified["Accept"] = "application/json"
        notModified["If-None-Match"] = try #require(try closed.send(.get, "/lists/team-a", headers: notModified).header("ETag"))
        let cached = try closed.send(.get, "/lists/team-a", headers: notModified)
        #expect(cached.status == 304)
        #expect(cached.header("Cache-Control") == "private, no-cache", "a 304 says what its 200 says")

        let open = try Self.client(private: false)
        #expect(try open.get("/lists/other").header("Cache-Control") == "no-cache")
        #expect(try open.get("/lists/other", accept: "application/json").header("Cache-Control") == "no-cache")
        #expect(try open.get("/lists/other?key=\(key)").header("Cache-Control") == "private, no-cache")
        #expect(try open.get("/lists/other?key=\(key)", accept: "application/json").header("Cache-Control") == "private, no-cache")
        #expect(
            try open.get("/lists/other", accept: "application/json").header("Cache-Control") == "no-cache",
            "the kept answer is not the key's")
    }

    @Test func privateMetricsNeedAdmin() throws {
        let client = try Self.client(private: true)
        #expect(try client.get("/metrics").status == 401)
        #expect(try client.send(.get, "/metrics", headers: Self.bearer("reader")).status == 403)
        #expect(try client.send(.get, "/metrics", headers: Self.bearer("ops")).status == 200)
        #expect(try client.get("/healthz").status == 200)
        #expect(try client.get("/openapi.json").status == 200)
        #expect(try client.get("/assets/js/main.js").status == 200)
    }

    @Test func aViewLinkPageCarriesItsKeyInItsNextLink() throws {
        let client = try Self.client(private: true)
        let created = try client.send(.post, "/lists/team-a/links?expires=60", headers: Self.bearer("writer"))
        #expect(created.status == 201)
        let url = try #require(created.body.split(separator: "\"").dropFirst(3).first.map(String.init))
        #expect(url.hasPrefix("/lists/team-a?key="))
        let key = String(url.split(separator: "=").last!)
        let page = try client.send(.get, url + "&limit=1")
        #expect(page.status == 200)
        #expect(page.body.contains("limit=1&amp;key=\(key)"))
        #expect(page.header("Link")?.contains("key=\(key)") == true)
        // The key-less first page is still what every token holder gets.
        let plain = try client.send(.get, "/lists/team-a?limit=1", headers: Self.bearer("reader"))
        #expect(!plain.body.contains("key="))
    }
}
