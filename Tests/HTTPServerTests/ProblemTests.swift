import Testing

@testable import HTTPServer

@Suite("problem+json")
struct ProblemTests {
    private func body(_ error: HTTPError) -> String {
        guard case .bytes(let bytes) = error.response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func carriesTypeTitleStatusDetail() {
        let error = HTTPError(.notFound, "No list \"x\".")
        #expect(body(error) == #"{"type":"about:blank","title":"Not Found","status":404,"detail":"No list \"x\"."}"# + "\n")
        #expect(error.response.status == .notFound)
        #expect(error.response.headers["Content-Type"] == "application/problem+json")
    }

    @Test func escapesControlCharactersAndOmitsMissingDetail() {
        #expect(body(HTTPError(.badRequest, "a\nb\u{1}\\")).contains(#""detail":"a\nb\u0001\\""#))
        #expect(!body(HTTPError(.conflict)).contains("detail"))
    }

    @Test func customTypeTitleAndHeaders() {
        let error = HTTPError(
            .unauthorized, "Send a bearer token.", title: "Token required",
            type: "https://example.com/problems/token", headers: ["WWW-Authenticate": "Bearer"])
        #expect(body(error).hasPrefix(#"{"type":"https://example.com/problems/token","title":"Token required","status":401"#))
        #expect(error.response.headers["www-authenticate"] == "Bearer")
    }
}
