import HTTPServer

/// `GET /healthz`: "ok" while the server can serve and its store takes writes; 503 otherwise.
enum HealthRoutes {
    static func register(on router: inout Router, context: ServerContext) {
        router.get("/healthz") { _ in
            do {
                try context.registry.checkStoreWritable()
            } catch {
                Log.info("health check: the store cannot take writes: \(error)")
                throw HTTPError(.serviceUnavailable, "The store cannot take writes; the cause is in the server's log.")
            }
            return .text("ok\n")
        }
    }
}
