import HTTPServer

/// `GET /healthz`: "ok" while the server can serve (later: and its store is writable).
enum HealthRoutes {
    static func register(on router: inout Router, context: ServerContext) {
        router.get("/healthz") { _ in
            .text("ok\n")
        }
    }
}
