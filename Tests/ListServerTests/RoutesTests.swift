import Foundation
import HTTPServer
import ListServerTesting
import Testing

@testable import ListServerHTTP
@testable import ListService

@Suite("list-server routes, in process")
struct RoutesTests {
    private let context: ServerContext
    private let router: Router

    init() throws {
        context = try ServerContext.inMemory()
        router = makeRouter(context: context)
    }

    private func get(_ target: String, headers: HTTPHeaders = HTTPHeaders()) throws -> (Response, String) {
        let response = router.respond(to: try Request(method: .get, target: target, headers: headers)).resolved()
        return (response, String(decoding: response.bodyBytes ?? [], as: UTF8.self))
    }

    @Test func healthzSaysOK() throws {
        let (response, body) = try get("/healthz")
        #expect(response.status == .ok)
        #expect(body == "ok\n")
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
    }

    @Test func indexIsAnHTMLPageWithSecurityHeaders() throws {
        let (response, body) = try get("/")
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(response.headers["Content-Security-Policy"]?.contains("default-src 'self'") == true)
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(body.lowercased().hasPrefix("<!doctype html>"))
    }

    @Test func assetsComeFromThePackagePublicFolder() throws {
        // Every module of the static client (Public/js/) is served as JavaScript, as module scripts need.
        let folder = try #require(PublicDirectory.packagePublic(above: URL(fileURLWithPath: #filePath)))
        let modules = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("js").path)
            .filter { $0.hasSuffix(".js") }
        #expect(modules.contains("main.js"))
        for module in modules {
            let (response, _) = try get("/assets/js/\(module)")
            #expect(response.status == .ok)
            #expect(response.headers["Content-Type"] == "text/javascript; charset=utf-8")
        }
        #expect(try get("/assets/../Package.swift").0.status == .notFound)
    }

    @Test func metricsAreInPrometheusFormat() throws {
        let (response, body) = try get("/metrics")
        #expect(response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
        #expect(body.contains("# TYPE list_server_http_responses_total counter"))
        #expect(body.contains("list_server_open_streams 0"))
    }

    @Test func publicFolderIsFoundFromAnywhereInThePackage() throws {
        let found = try #require(PublicDirectory.packagePublic(above: URL(fileURLWithPath: #filePath)))
        #expect(FileManager.default.fileExists(atPath: found.appendingPathComponent("js/main.js").path))
        #expect(throws: PublicDirectoryError.self) { try PublicDirectory.locate(explicit: "/no/such/dir") }
    }

    @Test func loopbackDetection() throws {
        #expect(try BindAddress(host: "127.0.0.1", port: 0).isLoopback)
        #expect(try BindAddress(host: "127.8.9.10", port: 0).isLoopback)
        #expect(try BindAddress(host: "::1", port: 0).isLoopback)
        #expect(try BindAddress(host: "localhost", port: 0).isLoopback)
        #expect(try !BindAddress(host: "0.0.0.0", port: 0).isLoopback)
        #expect(try !BindAddress(host: "::", port: 0).isLoopback)
        #expect(try BindAddress(host: "::1", port: 8080).url(port: 8080) == "http://[::1]:8080/")
    }
}
