import Testing

@testable import HTTPServer

@Suite("Request parsing")
struct RequestTests {
    @Test func splitsPathThenDecodesSegments() throws {
        let request = try Request(method: .get, target: "/lists/caf%C3%A9/rows/a%2Fb%3Fc")
        #expect(request.path == "/lists/caf%C3%A9/rows/a%2Fb%3Fc")
        #expect(request.pathSegments == ["lists", "café", "rows", "a/b?c"])
    }

    @Test func rootHasNoSegments() throws {
        #expect(try Request(method: .get, target: "/").pathSegments == [])
        #expect(try Request(method: .get, target: "/?x=1").pathSegments == [])
    }

    @Test func parsesQueryItemsInOrder() throws {
        let request = try Request(method: .get, target: "/rows?limit=50&after=a%2Bb+c&flag&limit=7")
        #expect(request.query("limit") == "50")
        #expect(request.query("after") == "a+b c")
        #expect(request.query("flag") == "")
        #expect(request.query("missing") == nil)
        #expect(request.queryItems.map(\.name) == ["limit", "after", "flag", "limit"])
        #expect(request.rawQuery == "limit=50&after=a%2Bb+c&flag&limit=7")
    }

    @Test(arguments: ["/x?a=%zz", "/x?a=%4", "/x?after=%FF", "/x?a=%C3%28", "/x?%zz=1", "/x?ok=1&%E2%82"])
    func rejectsMalformedQueries(target: String) {
        #expect(throws: HTTPError.self) { try Request(method: .get, target: target) }
    }

    @Test func decodesUTF8QueryValues() throws {
        #expect(try Request(method: .get, target: "/x?after=caf%C3%A9%20%E2%82%AC").query("after") == "café €")
    }

    @Test(arguments: ["/a%00b", "/a%zz", "/a%4", "/%C3%28", "relative/path", "*"])
    func rejectsMalformedPaths(target: String) {
        #expect(throws: HTTPError.self) { try Request(method: .get, target: target) }
    }

    @Test func acceptsAbsoluteFormTargets() throws {
        let request = try Request(method: .get, target: "http://example.com:8080/lists/x?limit=2")
        #expect(request.pathSegments == ["lists", "x"])
        #expect(request.query("limit") == "2")
    }

    @Test func headersAreCaseInsensitive() throws {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        headers.add("Accept", "text/html")
        headers.add("accept", "application/json")
        let request = try Request(method: .put, target: "/", headers: headers, body: [1, 2])
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers.values(for: "ACCEPT") == ["text/html", "application/json"])
        headers["ACCEPT"] = "*/*"
        #expect(headers.values(for: "accept") == ["*/*"])
        headers["Accept"] = nil
        #expect(!headers.contains("accept"))
        #expect(request.body == [1, 2])
    }
}
