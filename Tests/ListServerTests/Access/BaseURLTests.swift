import HTTPServer
import ListServerHTTP
import ListServerTesting
import Testing

@Suite("--base-url")
struct BaseURLTests {
    @Test func linksAreMadeOnTheBaseURLNotTheHost() throws {
        let client = RouterClient(context: try .inMemory(baseURL: "https://lists.example.com/app"))
        try client.put("/lists/g", json: #"{"title": "G"}"#)
        let answer = try client.post("/lists/g/links?right=write", json: "", headers: ["Host": "10.0.0.7:8080"])
        #expect(answer.status == 201)
        #expect(answer.body.contains(#""url":"https://lists.example.com/app/lists/g?key="#), "\(answer.body)")
        #expect(answer.header("Location")?.hasPrefix("https://lists.example.com/app/lists/g?key=") == true)
        let withoutBase = RouterClient(context: try .inMemory())
        try withoutBase.put("/lists/g", json: #"{"title": "G"}"#)
        let onHost = try withoutBase.post("/lists/g/links", json: "", headers: ["Host": "10.0.0.7:8080"])
        #expect(onHost.header("Location")?.hasPrefix("http://10.0.0.7:8080/lists/g?key=") == true)
    }

    @Test func onlyAbsoluteHTTPURLsWithoutQueryOrFragmentAreTaken() throws {
        #expect(try BaseURL.validated("https://lists.example.com/").get() == "https://lists.example.com")
        #expect(try BaseURL.validated("http://127.0.0.1:8080/prefix//").get() == "http://127.0.0.1:8080/prefix")
        for refused in [
            "lists.example.com", "/lists", "ftp://example.com", "https://", "https:///path", "https://u@example.com",
            "https://example.com/?a=1", "https://example.com/#top", "https://exa mple.com", "https://例え.jp",
        ] {
            #expect(throws: BaseURLError.self, "\(refused)") { try BaseURL.validated(refused).get() }
        }
    }
}
