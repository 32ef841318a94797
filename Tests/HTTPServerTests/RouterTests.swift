import Testing

@testable import HTTPServer

@Suite("Router")
struct RouterTests {
    private struct Boom: Error, CustomStringConvertible {
        var description: String { "secret database password in here" }
    }

    private func router() -> Router {
        var router = Router()
        router.get("/healthz") { _ in .text("ok") }
        router.get("/lists/{id}") { request in .text("list " + (try request.parameter("id"))) }
        router.put("/lists/{id}") { _ in .text("put") }
        router.get("/lists/{id}/rows/{row}") { request in
            .text("\(try request.parameter("id"))|\(try request.parameter("row"))")
        }
        router.get("/assets/{path...}") { request in .text(try request.parameter("path")) }
        router.get("/teapot") { _ in throw HTTPError(.unprocessableContent, "Row \"x\" names no column.") }
        router.get("/boom") { _ in throw Boom() }
        return router
    }

    private func get(_ target: String, method: HTTPMethod = .get) throws -> Response {
        router().respond(to: try Request(method: method, target: target))
    }

    private func text(_ response: Response) -> String {
        guard case .bytes(let bytes) = response.body else { return "<stream>" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func capturesDecodedPathParameters() throws {
        #expect(text(try get("/lists/a%20b/rows/r%C3%A9")) == "a b|ré")
    }

    @Test func encodedSlashStaysInsideOneSegment() throws {
        let response = try get("/lists/a%2Fb/rows/c")
        #expect(response.status == .ok)
        #expect(text(response) == "a/b|c")
        #expect(try get("/lists/a/b/rows/c").status == .notFound)
    }

    @Test func restParameterTakesTheRemainingSegments() throws {
        #expect(text(try get("/assets/css/list.css")) == "css/list.css")
        #expect(try get("/assets").status == .notFound)
    }

    @Test func unknownPathIsProblemJSON404() throws {
        let response = try get("/nope")
        #expect(response.status == .notFound)
        #expect(response.headers["content-type"] == "application/problem+json")
        #expect(text(response).contains("\"status\":404"))
    }

    @Test func wrongMethodIs405WithAllow() throws {
        let response = try get("/lists/x", method: .delete)
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD, PUT, OPTIONS")
        #expect(text(response).contains("\"title\":\"Method Not Allowed\""))
    }

    @Test func optionsOnAKnownPathIs204WithAllowAndEvery405ListsOptions() throws {
        let options = try get("/lists/x", method: .options)
        #expect(options.status == .noContent)
        #expect(options.headers["Allow"] == "GET, HEAD, PUT, OPTIONS")
        #expect(try get("/nope", method: .options).status == .notFound)
        let post = try get("/lists/x", method: .post)
        #expect(post.status == .methodNotAllowed)
        #expect(post.headers["Allow"]?.split(separator: ",").map { $0.trimmingOWS() }.contains("OPTIONS") == true)
    }

    @Test func headIsAnsweredByGetRoutes() throws {
        #expect(try get("/healthz", method: .head).status == .ok)
    }

    @Test func httpErrorKeepsStatusAndDetail() throws {
        let response = try get("/teapot")
        #expect(response.status == .unprocessableContent)
        #expect(
            text(response) == #"{"type":"about:blank","title":"Unprocessable Content","status":422,"detail":"Row \"x\" names no column."}"#
                + "\n")
    }

    @Test func otherErrorsBecome500WithoutLeakingAndAreReported() throws {
        var reported: String?
        let response = router().respond(to: try Request(method: .get, target: "/boom")) { _, error in
            reported = "\(error)"
        }
        #expect(response.status == .internalServerError)
        #expect(!text(response).contains("secret"))
        #expect(reported == "secret database password in here")
    }

    @Test func trailingSlashIsADifferentPath() throws {
        #expect(try get("/healthz/").status == .notFound)
    }
}
