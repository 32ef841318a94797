import Foundation
import Testing

@testable import HTTPServer

@Suite("Static files")
struct StaticFilesTests {
    /// A temporary Public/ with a few files, and a secret next to it that must never be served.
    final class Fixture {
        let base: URL
        let files: StaticFiles

        init() throws {
            base = FileManager.default.temporaryDirectory.appendingPathComponent("static-\(UUID().uuidString)")
            let root = base.appendingPathComponent("Public")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("css"), withIntermediateDirectories: true)
            try Data("console.log(1)".utf8).write(to: root.appendingPathComponent("app.js"))
            try Data("body{}".utf8).write(to: root.appendingPathComponent("css/site.css"))
            try Data("hidden".utf8).write(to: root.appendingPathComponent(".env"))
            try Data("secret".utf8).write(to: base.appendingPathComponent("secret.txt"))
            try FileManager.default.createSymbolicLink(
                atPath: root.appendingPathComponent("escape.txt").path,
                withDestinationPath: base.appendingPathComponent("secret.txt").path)
            files = try StaticFiles(directory: root.path)
        }

        deinit { try? FileManager.default.removeItem(at: base) }

        /// The file's answer as the server sends it (a 304 when `If-None-Match` names its tag).
        func get(_ target: String, headers: HTTPHeaders = HTTPHeaders()) throws -> Response {
            let request = try Request(method: .get, target: target, headers: headers)
            let response = try files.response(for: Array(request.pathSegments.dropFirst()), request: request)
            return HTTPServer.notModified(response, method: .get, requestHeaders: headers)
        }
    }

    private func body(_ response: Response) -> String {
        String(decoding: response.bodyBytes ?? [], as: UTF8.self)
    }

    @Test func servesFilesWithTypeETagAndCacheControl() throws {
        let fixture = try Fixture()
        let script = try fixture.get("/assets/app.js")
        #expect(body(script) == "console.log(1)")
        #expect(script.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(script.headers["Cache-Control"] == "no-cache")
        #expect(script.headers["ETag"]?.hasPrefix("\"") == true)
        #expect(try fixture.get("/assets/css/site.css").headers["Content-Type"] == "text/css; charset=utf-8")
    }

    @Test func matchingIfNoneMatchGives304() throws {
        let fixture = try Fixture()
        let etag = try #require(try fixture.get("/assets/app.js").headers["ETag"])
        let cached = try fixture.get("/assets/app.js", headers: ["If-None-Match": "\"other\", W/\(etag)"])
        #expect(cached.status == .notModified)
        #expect(body(cached).isEmpty)
        #expect(try fixture.get("/assets/app.js", headers: ["If-None-Match": "\"other\""]).status == .ok)
    }

    @Test func changedFileGetsNewBytesAndETag() throws {
        let fixture = try Fixture()
        let before = try fixture.get("/assets/app.js").headers["ETag"]
        try Data("console.log(2); // longer".utf8).write(to: fixture.base.appendingPathComponent("Public/app.js"))
        let after = try fixture.get("/assets/app.js")
        #expect(body(after) == "console.log(2); // longer")
        #expect(after.headers["ETag"] != before)
    }

    @Test(arguments: [
        "/assets/../secret.txt", "/assets/%2e%2e/secret.txt", "/assets/..%2fsecret.txt", "/assets/css%2f..%2f..%2fsecret.txt",
        "/assets/..%5csecret.txt", "/assets/a\\..\\..\\secret.txt", "/assets/.env", "/assets/escape.txt",
        "/assets/css", "/assets/missing.js", "/assets/css//site.css", "/assets/%2fetc%2fpasswd",
    ])
    func refusesEverythingOutsideOrHidden(target: String) throws {
        let fixture = try Fixture()
        let error = #expect(throws: HTTPError.self) { try fixture.get(target) }
        #expect(error?.status == .notFound)
    }

    @Test func encodedNULIsRejectedWhileParsing() {
        #expect(throws: HTTPError.self) { try Request(method: .get, target: "/assets/app.js%00.png") }
    }
}
