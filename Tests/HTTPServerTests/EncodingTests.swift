import Testing

@testable import HTTPServer

@Suite("gzip and Accept-Encoding")
struct EncodingTests {
    @Test(
        "Accept-Encoding values that accept gzip",
        arguments: [
            "gzip", "GZIP", "x-gzip", "gzip;q=1", "gzip; q=0.5", "gzip;Q=0.001", "br, gzip", "*", "*;q=0.3",
            "deflate, *", "identity, gzip;q=1.000", "gzip;q=0.5, *;q=0", " gzip ",
        ])
    func accepts(_ header: String) {
        #expect(AcceptEncoding.acceptsGzip(header))
    }

    @Test(
        "Accept-Encoding values that do not",
        arguments: [
            "", "identity", "br", "deflate, br", "gzip;q=0", "gzip;q=0.0", "gzip;q=0.000", "*;q=0", "gzip;q=0, *",
            "*, gzip;q=0", "gzip;q=2", "gzip;q=1.5", "gzip;q=0.0001", "gzip;q=abc", "gzip;q=", "gzipx", ",;,",
        ])
    func refuses(_ header: String) {
        #expect(!AcceptEncoding.acceptsGzip(header))
    }

    @Test func noHeaderMeansIdentity() {
        #expect(!AcceptEncoding.acceptsGzip(nil))
    }

    @Test("gzip round-trips any bytes", arguments: [0, 1, 255, 256, 70_000, 1_000_000])
    func roundTrip(size: Int) {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<size).map { index in index % 7 == 0 ? UInt8.random(in: 0...255, using: &generator) : UInt8(index % 40 + 48) }
        let compressed = Gzip.compress(bytes)
        #expect(compressed.starts(with: [0x1F, 0x8B]), "a gzip member starts with its magic bytes")
        #expect(Gzip.decompress(compressed) == bytes)
    }

    @Test func compressesText() {
        let text = Array(String(repeating: "{\"key\":\"n1\",\"cells\":{\"n\":1}},", count: 1000).utf8)
        #expect(Gzip.compress(text).count * 10 < text.count)
    }

    @Test func decompressRefusesGarbageAndTruncation() {
        let compressed = Gzip.compress(Array(repeating: 65, count: 10_000))
        #expect(Gzip.decompress([1, 2, 3, 4]) == nil)
        #expect(Gzip.decompress(Array(compressed.dropLast(4))) == nil)
        #expect(Gzip.decompress(compressed, limit: 100) == nil)
    }

    @Test(
        "compressible media types",
        arguments: [
            ("text/html; charset=utf-8", true), ("application/json", true), ("application/problem+json", true),
            ("text/javascript; charset=utf-8", true), ("text/css", true), ("image/svg+xml", true),
            ("text/event-stream", false), ("image/png", false), ("application/octet-stream", false),
        ])
    func compressible(_ type: String, _ expected: Bool) {
        #expect(Compressibility.isCompressible(contentType: type) == expected)
    }

    @Test func eligibilityNeedsA200OfSomeSize() {
        let json: HTTPHeaders = ["Content-Type": "application/json"]
        #expect(Compressibility.isEligible(status: .ok, headers: json, size: 256))
        #expect(!Compressibility.isEligible(status: .ok, headers: json, size: 255))
        #expect(!Compressibility.isEligible(status: .created, headers: json, size: 10_000))
        #expect(
            !Compressibility.isEligible(status: .ok, headers: ["Content-Type": "application/json", "Content-Encoding": "br"], size: 10_000))
    }

    @Test func preparedVariantsAreKeptAndCompressedOnce() throws {
        let body = Array(String(repeating: "<tr><td>row</td></tr>\n", count: 200).utf8)
        let prepared = try PreparedResponse(
            Response(status: .ok, headers: ["Content-Type": "text/html", "ETag": "\"7-html\""], body: body))
        #expect(prepared.headers["Vary"] == "Accept-Encoding", "the identity form varies too")
        let none = CORSPolicy(origins: [])
        #expect(try prepared.variant(gzip: false, cors: none, origin: nil) === prepared)
        let gzip = try prepared.variant(gzip: true, cors: none, origin: nil)
        #expect(gzip.headers["Content-Encoding"] == "gzip")
        #expect(gzip.headers["ETag"] == "\"7-html-gzip\"", "a strong tag differs per content coding")
        #expect(Gzip.decompress(gzip.bytes) == body)
        #expect(try prepared.variant(gzip: true, cors: none, origin: nil) === gzip, "made once")
        let cors = CORSPolicy(origins: ["https://a.example"])
        let allowed = try prepared.variant(gzip: true, cors: cors, origin: "https://a.example")
        #expect(allowed.headers["Access-Control-Allow-Origin"] == "https://a.example")
        #expect(allowed.headers["Vary"] == "Accept-Encoding, Origin")
        #expect(allowed.bytes == gzip.bytes, "the compressed bytes are shared")
        let small = try PreparedResponse(Response(status: .ok, headers: ["Content-Type": "text/html"], body: [65]))
        #expect(try small.variant(gzip: true, cors: none, origin: nil) === small, "too small to compress")
    }
}

@Suite("CORS policy")
struct CORSPolicyTests {
    let policy = CORSPolicy(origins: ["https://app.example", "http://localhost:3000"])

    @Test func preflightFromAnAllowedOrigin() throws {
        let answer = try #require(
            policy.preflight(
                method: .options,
                headers: [
                    "Origin": "https://app.example", "Access-Control-Request-Method": "DELETE",
                ]))
        #expect(answer.status == .noContent)
        #expect(answer.headers["Access-Control-Allow-Origin"] == "https://app.example")
        #expect(answer.headers["Access-Control-Allow-Methods"]?.contains("PATCH") == true)
        #expect(answer.headers["Access-Control-Allow-Headers"] == "Authorization, Content-Type, If-Match, If-None-Match, Last-Event-ID")
    }

    @Test func noPreflightOtherwise() {
        #expect(
            policy.preflight(method: .options, headers: ["Origin": "https://evil.example", "Access-Control-Request-Method": "GET"]) == nil)
        #expect(policy.preflight(method: .options, headers: ["Origin": "https://app.example"]) == nil)
        #expect(policy.preflight(method: .get, headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "GET"]) == nil)
        #expect(
            CORSPolicy(origins: []).preflight(
                method: .options, headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "GET"]) == nil)
    }

    @Test func answersNameOnlyAnAllowedOrigin() {
        var headers: HTTPHeaders = ["Vary": "Accept"]
        policy.apply(origin: policy.allowedOrigin(["Origin": "http://localhost:3000"]), to: &headers)
        #expect(headers["Access-Control-Allow-Origin"] == "http://localhost:3000")
        #expect(headers["Access-Control-Expose-Headers"] == "ETag, Link, List-Cursor, Location")
        #expect(headers["Vary"] == "Accept, Origin")
        var other: HTTPHeaders = [:]
        policy.apply(origin: policy.allowedOrigin(["Origin": "http://localhost:3001"]), to: &other)
        #expect(other["Access-Control-Allow-Origin"] == nil)
        #expect(other["Vary"] == "Origin")
    }

    @Test func varyIsMergedOnce() {
        var headers: HTTPHeaders = ["Vary": "accept, origin"]
        headers.addVary("Origin")
        #expect(headers["Vary"] == "accept, origin")
        headers["Vary"] = "*"
        headers.addVary("Origin")
        #expect(headers["Vary"] == "*")
    }
}
