import Foundation
import Synchronization
import Testing

@testable import HTTPServer

@Suite("Entity tags and 304s (RFC 9110 sections 8.8.3, 13.1.2, 15.4.5)")
struct EntityTagTests {
    @Test func theGzipTagDiffersAndNamesTheSameVersion() {
        #expect(EntityTag.gzip("\"7\"") == "\"7-gzip\"")
        #expect(EntityTag.gzip("W/\"7-html\"") == "W/\"7-html-gzip\"")
        #expect(EntityTag.identity("\"7-gzip\"") == "\"7\"")
        #expect(EntityTag.identity("W/\"7-rows-gzip\"") == "W/\"7-rows\"")
        #expect(EntityTag.identity("\"7\"") == "\"7\"")
        #expect(EntityTag.identity("\"-gzip\"") == "\"-gzip\"", "nothing left to name")
    }

    @Test func ifNoneMatchComparesWeakly() {
        #expect(EntityTag.noneMatchNames("\"a\", W/\"7\"", "\"7\""))
        #expect(EntityTag.noneMatchNames(" * ", "\"7\""))
        #expect(EntityTag.noneMatchNames("\"7-gzip\"", "\"7-gzip\""))
        #expect(!EntityTag.noneMatchNames("\"7\"", "\"7-gzip\""), "the identity bytes are not the gzip answer")
        #expect(!EntityTag.noneMatchNames("\"7-gzip\"", "\"7\""))
    }

    private func answer() -> Response {
        var response = Response.html(Array("<p>hello</p>".utf8))
        response.headers["ETag"] = "\"7-html\""
        response.headers["Cache-Control"] = "private, no-cache"
        response.headers["Vary"] = "Accept, Accept-Encoding"
        response.headers["Content-Location"] = "/lists/a"
        response.headers["Expires"] = "Thu, 01 Jan 1970 00:00:00 GMT"
        response.headers["Link"] = "</lists/a?after=x>; rel=\"next\""
        response.headers["Content-Security-Policy"] = "default-src 'self'"
        response.headers["Access-Control-Allow-Origin"] = "https://a.example"
        return response
    }

    @Test func aFresh200BecomesA304WithTheFieldsItsCacheNeedsAndItsLength() {
        let fresh = HTTPServer.notModified(answer(), method: .get, requestHeaders: ["If-None-Match": "W/\"7-html\""])
        #expect(fresh.status == .notModified)
        #expect(fresh.notModifiedLength == 12)
        #expect(fresh.headers["ETag"] == "\"7-html\"")
        #expect(fresh.headers["Cache-Control"] == "private, no-cache")
        #expect(fresh.headers["Vary"] == "Accept, Accept-Encoding")
        #expect(fresh.headers["Content-Location"] == "/lists/a")
        #expect(fresh.headers["Expires"] != nil)
        #expect(fresh.headers["Access-Control-Allow-Origin"] == "https://a.example")
        #expect(
            fresh.headers["Content-Type"] == nil && fresh.headers["Link"] == nil
                && fresh.headers["Content-Security-Policy"] == nil, "no other representation metadata")
        #expect(fresh.bodyBytes == [])
    }

    @Test func otherwiseTheAnswerIsUnchanged() {
        #expect(HTTPServer.notModified(answer(), method: .get, requestHeaders: ["If-None-Match": "\"8-html\""]).status == .ok)
        #expect(HTTPServer.notModified(answer(), method: .get, requestHeaders: [:]).status == .ok)
        #expect(HTTPServer.notModified(answer(), method: .head, requestHeaders: ["If-None-Match": "*"]).status == .notModified)
        #expect(HTTPServer.notModified(answer(), method: .put, requestHeaders: ["If-None-Match": "*"]).status == .ok)
        var created = answer()
        created.status = .created
        #expect(HTTPServer.notModified(created, method: .get, requestHeaders: ["If-None-Match": "*"]).status == .created)
    }
}

extension EntityTagTests {
    @Test func aPreparedAnswersEach304IsMadeOnceWithItsFormsFields() throws {
        let body = Array(String(repeating: "<tr><td>row</td></tr>\n", count: 40).utf8)
        var answer = Response.html(body)
        answer.headers["ETag"] = "\"7-html\""
        answer.headers["Cache-Control"] = "no-cache"
        answer.headers["Link"] = "</lists/a?after=x>; rel=\"next\""
        let prepared = try PreparedResponse(answer)
        let cors = CORSPolicy(origins: ["https://a.example"])
        let form = try prepared.variant(gzip: true, cors: cors, origin: "https://a.example")
        func notModified(_ form: PreparedResponse, _ tag: String) throws -> PreparedResponse {
            let reply = HTTPServer.notModified(Response(prepared: form), method: .get, requestHeaders: ["If-None-Match": tag])
            #expect(reply.status == .notModified)
            guard case .prepared(let kept) = reply.body else { throw HTTPError(.internalServerError, "not a prepared 304") }
            return kept
        }
        let identity = try notModified(prepared, "\"7-html\"")
        #expect(identity.headers["ETag"] == "\"7-html\"" && identity.headers["Cache-Control"] == "no-cache")
        #expect(identity.headers["Link"] == nil && identity.headers["Content-Type"] == nil)
        #expect(identity.notModifiedLength == body.count && identity.bytes.isEmpty)
        #expect(try notModified(prepared, "W/\"7-html\"") === identity, "made once, then sent as it is")
        let gzip = try notModified(form, "\"7-html-gzip\"")
        #expect(gzip !== identity)
        #expect(gzip.notModifiedLength == form.bytes.count, "the compressed length")
        #expect(gzip.headers["Access-Control-Allow-Origin"] == "https://a.example")
        #expect(gzip.headers["Vary"] == "Accept-Encoding, Origin")
        #expect(
            HTTPServer.notModified(Response(prepared: form), method: .get, requestHeaders: ["If-None-Match": "\"7-html\""]).status == .ok)
    }
}

@Suite("Header fields as RFC 9110 reads them")
struct HeaderHygieneTests {
    @Test func valuesLoseLeadingAndTrailingSpacesAndTabs() throws {
        let request = try Request(
            method: .get, target: "/",
            headers: [
                "Authorization": "Bearer TOKEN \t", "Last-Event-ID": " 1 ", "Accept": "text/html", "X-Empty": "  ",
            ])
        #expect(request.headers["Authorization"] == "Bearer TOKEN")
        #expect(request.headers["Last-Event-ID"] == "1")
        #expect(request.headers["Accept"] == "text/html")
        #expect(request.headers["X-Empty"] == "")
    }
}

@Suite("Caching and header fields on the wire", .serialized)
struct ConditionalWireTests {
    static let page = String(repeating: "<tr><td>row</td></tr>\n", count: 40)

    /// How often the `/validated` route made its answer, and the version it names.
    static let made = Atomic<Int>(0)
    static let version = Atomic<Int>(7)

    /// A kept answer, as the first page of a list is.
    static let prepared: PreparedResponse = {
        var response = Response.html(Array(page.utf8))
        response.headers["ETag"] = "\"9-html\""
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Link"] = "</prepared?after=x>; rel=\"next\""
        return try! PreparedResponse(response)
    }()

    private func startServer(corsOrigins: [String] = []) throws -> HTTPServer {
        var router = Router()
        router.get("/validated") { _ in
            let etag = "\"\(Self.version.load(ordering: .relaxed))-rows\""
            return .validated(etag: etag) {
                Self.made.add(1, ordering: .relaxed)
                var response = Response.json(Array(("[" + String(repeating: "1,", count: 300) + "1]").utf8))
                response.headers["ETag"] = etag
                response.headers["Cache-Control"] = "no-cache"
                response.headers["Link"] = "</validated?after=x>; rel=\"next\""
                return response
            }
        }
        router.get("/page") { _ in
            var response = Response.html(Array(Self.page.utf8))
            response.headers["ETag"] = "\"7-html\""
            response.headers["Cache-Control"] = "no-cache"
            response.headers["Vary"] = "Accept"
            return response
        }
        router.get("/who") { request in .text(request.headers["Authorization"] ?? "nobody") }
        router.get("/prepared") { _ in Response(prepared: Self.prepared) }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.logRequests = false
        configuration.corsOrigins = corsOrigins
        let server = try HTTPServer(configuration: configuration, router: router)
        try server.start()
        return server
    }

    @Test func the304CarriesThe200sFieldsAndLengthAndTheConnectionStaysOpen() throws {
        let server = try startServer()
        defer { server.shutdown() }
        let client = try TestClient(port: server.port)
        client.send("GET /page HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
        let zipped = TestClient.parse(client.read(until: "\r\n\r\n"))
        #expect(zipped.status == 200)
        #expect(zipped.headers["content-encoding"] == "gzip")
        #expect(zipped.headers["etag"] == "\"7-html-gzip\"", "the gzip answer has its own strong tag")
        let zippedLength = try #require(zipped.headers["content-length"].flatMap { Int($0) })

        let other = try TestClient(port: server.port)
        other.send(
            "GET /page HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nIf-None-Match: \"7-html-gzip\"\r\n\r\n"
                + "GET /page HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"7-html\"\r\n\r\n")
        let raw = other.read(until: "Content-Length: \(Self.page.utf8.count)\r\n\r\n")
        let replies = raw.components(separatedBy: "HTTP/1.1 ").dropFirst().map { TestClient.parse("HTTP/1.1 " + $0) }
        #expect(replies.count == 2, "both 304s on one connection: \(raw)")
        let gzip304 = try #require(replies.first)
        #expect(gzip304.status == 304)
        #expect(gzip304.headers["etag"] == "\"7-html-gzip\"")
        #expect(gzip304.headers["cache-control"] == "no-cache")
        #expect(gzip304.headers["vary"] == "Accept, Accept-Encoding")
        #expect(gzip304.headers["content-length"] == String(zippedLength), "the 200's length, never 0")
        #expect(gzip304.headers["content-type"] == nil)
        #expect(gzip304.body.isEmpty)
        let identity304 = try #require(replies.last)
        #expect(identity304.status == 304)
        #expect(identity304.headers["etag"] == "\"7-html\"")
        #expect(identity304.headers["content-length"] == String(Self.page.utf8.count))
        #expect(identity304.body.isEmpty)
    }

    @Test func aPreparedAnswers304sGoOutOnOneConnectionInEachForm() throws {
        let server = try startServer(corsOrigins: ["https://a.example"])
        defer { server.shutdown() }
        let zipped = try TestClient.request(
            port: server.port, "GET", "/prepared", headers: ["Accept-Encoding: gzip", "Origin: https://a.example"])
        #expect(zipped.status == 200 && zipped.headers["etag"] == "\"9-html-gzip\"")
        let zippedLength = try #require(zipped.headers["content-length"])
        let client = try TestClient(port: server.port)
        for _ in 0..<2 {
            client.send(
                "GET /prepared HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nOrigin: https://a.example\r\n"
                    + "If-None-Match: \"9-html-gzip\"\r\n\r\n"
                    + "HEAD /prepared HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"9-html\"\r\n\r\n"
                    + "GET /prepared HTTP/1.1\r\nHost: x\r\n\r\n")
            let raw = client.read(until: Self.page)
            let replies = raw.components(separatedBy: "HTTP/1.1 ").dropFirst().map { TestClient.parse("HTTP/1.1 " + $0) }
            #expect(replies.count == 3, "three answers on one connection: \(raw)")
            guard replies.count == 3 else { return }
            #expect(replies[0].status == 304 && replies[0].body.isEmpty)
            #expect(replies[0].headers["etag"] == "\"9-html-gzip\"")
            #expect(replies[0].headers["content-length"] == zippedLength, "the gzip answer's length")
            #expect(replies[0].headers["access-control-allow-origin"] == "https://a.example")
            #expect(replies[0].headers["vary"] == "Accept-Encoding, Origin")
            #expect(replies[0].headers["link"] == nil && replies[0].headers["content-encoding"] == nil)
            #expect(replies[1].status == 304 && replies[1].headers["etag"] == "\"9-html\"")
            #expect(replies[1].headers["content-length"] == String(Self.page.utf8.count))
            #expect(replies[1].headers["access-control-allow-origin"] == nil, "no Origin, no CORS fields")
            #expect(replies[2].status == 200 && replies[2].body == Self.page)
        }
    }

    @Test func aValidatedAnswerIsNotMadeAgainForA304() throws {
        let server = try startServer()
        defer { server.shutdown() }
        Self.made.store(0, ordering: .relaxed)
        Self.version.store(7, ordering: .relaxed)
        let first = try TestClient.request(port: server.port, "GET", "/validated?x=1", headers: ["Accept-Encoding: gzip"])
        #expect(first.status == 200 && first.headers["etag"] == "\"7-rows-gzip\"")
        #expect(Self.made.load(ordering: .relaxed) == 1)
        let again = try TestClient.request(
            port: server.port, "GET", "/validated?x=1",
            headers: ["Accept-Encoding: gzip", "If-None-Match: \"7-rows-gzip\""])
        #expect(again.status == 304)
        #expect(again.headers["content-length"] == first.headers["content-length"], "the 200's length, remembered")
        #expect(again.headers["cache-control"] == "no-cache" && again.headers["vary"] == "Accept-Encoding")
        #expect(again.headers["link"] == nil)
        #expect(Self.made.load(ordering: .relaxed) == 1, "the 304 came from the memo")
        let identity = try TestClient.request(port: server.port, "GET", "/validated?x=1", headers: ["If-None-Match: \"7-rows\""])
        #expect(identity.status == 304, "made once for the identity coding, then validated")
        #expect(Self.made.load(ordering: .relaxed) == 2)
        #expect(try TestClient.request(port: server.port, "GET", "/validated?x=1", headers: ["If-None-Match: \"7-rows\""]).status == 304)
        #expect(Self.made.load(ordering: .relaxed) == 2)
        #expect(
            try TestClient.request(port: server.port, "GET", "/validated?x=2", headers: ["If-None-Match: \"7-rows\""]).status == 304,
            "another target is made before it is validated")
        #expect(Self.made.load(ordering: .relaxed) == 3)
        Self.version.store(8, ordering: .relaxed)
        let newer = try TestClient.request(port: server.port, "GET", "/validated?x=1", headers: ["If-None-Match: \"7-rows\""])
        #expect(newer.status == 200 && newer.headers["etag"] == "\"8-rows\"", "a new version is made and sent")
        #expect(Self.made.load(ordering: .relaxed) == 4)
    }

    @Test func theIdentityTagDoesNotValidateTheGzipAnswer() throws {
        let server = try startServer()
        defer { server.shutdown() }
        let reply = try TestClient.request(
            port: server.port, "GET", "/page",
            headers: ["Accept-Encoding: gzip", "If-None-Match: \"7-html\""])
        #expect(reply.status == 200)
        #expect(reply.headers["etag"] == "\"7-html-gzip\"")
    }

    @Test func aRepeatedAuthorizationOrOriginIs400AndPaddingIsTrimmed() throws {
        let server = try startServer()
        defer { server.shutdown() }
        let twice = try TestClient.request(
            port: server.port, "GET", "/who",
            headers: ["Authorization: Bearer a", "Authorization: Bearer b"])
        #expect(twice.status == 400)
        #expect(twice.headers["content-type"] == "application/problem+json")
        #expect(twice.body.contains("Authorization"))
        let origins = try TestClient.request(
            port: server.port, "GET", "/who",
            headers: ["Origin: https://a.example", "Origin: https://b.example"])
        #expect(origins.status == 400)
        let padded = try TestClient.request(port: server.port, "GET", "/who", headers: ["Authorization: Bearer a \t "])
        #expect(padded.body == "Bearer a")
    }
}
