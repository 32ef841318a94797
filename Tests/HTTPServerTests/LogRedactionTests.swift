import Testing
@testable import HTTPServer

@Suite("Log redaction")
struct LogRedactionTests {
    private let names: Set<String> = ["key", "token"]

    @Test(arguments: [
        ("/lists/a?key=123.abc", "/lists/a?key=REDACTED"),
        ("/lists/a/events?view=html&key=1.x&since=3", "/lists/a/events?view=html&key=REDACTED&since=3"),
        ("/lists/a?ke%79=secret", "/lists/a?ke%79=REDACTED"),
        ("/lists/a?key", "/lists/a?key=REDACTED"),
        ("/lists/a?key=a&key=b", "/lists/a?key=REDACTED&key=REDACTED"),
        ("/lists/a?token=t&monkey=m", "/lists/a?token=REDACTED&monkey=m"),
        ("/lists/a?limit=5", "/lists/a?limit=5"),
        ("/lists/key=a", "/lists/key=a"),
        ("/", "/"),
    ])
    func hidesTheValuesOfSecretQueryItems(target: String, logged: String) {
        #expect(LogRedaction.target(target, hiding: names) == logged)
    }

    @Test func theServerHidesViewLinkKeysByDefault() {
        #expect(ServerConfiguration().redactedQueryNames.contains("key"))
    }
}
