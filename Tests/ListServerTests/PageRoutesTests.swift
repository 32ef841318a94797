import HTTPServer
import ListModel
import ListServerTesting
import Testing

@testable import ListServerHTTP
@testable import ListService

@Suite("Pages, in process")
struct PageRoutesTests {
    let client: RouterClient

    /// Three sections of 4, 0 and 3 rows: r0…r3, then an empty section, then r4…r6.
    init() throws {
        client = RouterClient(context: try .inMemory())
        try client.put(
            "/lists/p",
            json: """
                {"title": "P", "sections": [
                  {"key": "a", "header": "A", "footer": "end of A", "rows": [{"key": "r0"}, {"key": "r1"}, {"key": "r2"}, {"key": "r3"}]},
                  {"key": "empty", "header": "Nothing"},
                  {"key": "b", "footer": "end of B", "rows": [{"key": "r4"}, {"key": "r5"}, {"key": "r6"}]}]}
                """)
    }

    func page(_ target: String) throws -> (keys: [String], next: String?, answer: RouterClient.Answer) {
        let answer = try client.get(target)
        let json = try JSONValue(parsing: Array(answer.body.utf8))
        let keys = json["/sections"]?.arrayValue?.flatMap { $0["/rows"]?.arrayValue?.compactMap { $0["/key"]?.stringValue } ?? [] } ?? []
        return (keys, json["/next"]?.stringValue, answer)
    }

    @Test func walkingAllPagesReturnsEveryRowOnce() throws {
        var seen: [String] = []
        var target = "/lists/p/rows?limit=3"
        var pages = 0
        while true {
            let (keys, next, answer) = try page(target)
            seen += keys
            pages += 1
            #expect(answer.header("List-Cursor") != nil, "every page names the cursor after its last row")
            guard let next else {
                #expect(answer.header("Link") == nil)
                break
            }
            #expect(answer.header("List-Cursor") == next)
            #expect(answer.header("Link") == "</lists/p/rows?after=\(next)&limit=3>; rel=\"next\"")
            target = "/lists/p/rows?after=\(next)&limit=3"
        }
        #expect(seen == ["r0", "r1", "r2", "r3", "r4", "r5", "r6"])
        #expect(pages == 3)
    }

    @Test func htmlFragmentsContinueSectionsWithoutAHeader() throws {
        let first = try page("/lists/p/rows?limit=2")
        let fragment = try client.get("/lists/p/rows?after=\(try #require(first.next))&limit=2", accept: "text/html").body
        #expect(fragment.contains(#"data-section="a""#))
        #expect(!fragment.contains(">A<"), "a continued section has no second header")
        #expect(fragment.contains("end of A"), "the footer comes with the section's last row")
        #expect(fragment.contains(#"rel="next""#))
    }

    @Test func theHTMLPageLinksToTheNextPageWithoutJavaScript() throws {
        let html = try client.get("/lists/p?limit=3", accept: "text/html").body
        #expect(html.contains(#"data-row="r2""#))
        #expect(!html.contains(#"data-row="r3""#))
        let next = try #require(html.range(of: #"rel="next" href=""#).map { html[$0.upperBound...].prefix { $0 != "\"" } })
        let second = try client.get(String(next).replacingOccurrences(of: "&amp;", with: "&"), accept: "text/html").body
        #expect(second.contains(#"data-row="r3""#))
        #expect(!second.contains(#"data-row="r2""#))
    }

    @Test func badCursorsAndLimitsAre400() throws {
        #expect(try client.get("/lists/p/rows?after=nonsense").status == 400)
        #expect(try client.get("/lists/p/rows?limit=0").status == 400)
        #expect(try client.get("/lists/p/rows?limit=501").status == 400)
        #expect(try client.get("/lists/p/rows?limit=ten").status == 400)
        #expect(try client.get("/lists/p?after=nonsense").status == 400)
        #expect(try client.get("/lists/missing/rows").status == 404)
    }

    @Test func aCursorSurvivesDeletionOfItsRow() throws {
        let first = try page("/lists/p/rows?limit=2")
        try client.send(.delete, "/lists/p/rows/r1")
        let second = try page("/lists/p/rows?after=\(try #require(first.next))&limit=2")
        #expect(second.keys == ["r2", "r3"])
    }
}

@Suite("Pages when the cursor's row was the first of its section")
struct ContinuedSectionTests {
    @Test func theNextPageDoesNotRepeatTheSectionHeader() throws {
        let client = RouterClient(context: try .inMemory())
        try client.put(
            "/lists/c",
            json: """
                {"title": "C", "sections": [
                  {"key": "a", "header": "Alpha", "rows": [{"key": "a1"}]},
                  {"key": "b", "header": "Beta", "rows": [{"key": "b1"}, {"key": "b2"}, {"key": "b3"}]}]}
                """)
        let first = try JSONValue(parsing: Array(client.get("/lists/c/rows?limit=2").body.utf8))
        let next = try #require(first["/next"]?.stringValue)
        try client.send(.delete, "/lists/c/rows/b1")  // the cursor's row, the first of section b
        let fragment = try client.get("/lists/c/rows?after=\(next)&limit=2", accept: "text/html").body
        #expect(fragment.contains(#"data-row="b2""#))
        #expect(!fragment.contains("Beta"), "section b began on the previous page: no second header")
    }
}
