import HTTPServer

/// `GET /metrics`: Prometheus text exposition format, version 0.0.4.
enum MetricsRoutes {
    static func register(on router: inout Router, context: ServerContext) {
        router.get("/metrics") { _ in
            var response = Response.text(context.metrics.prometheusText(prefix: "list_server_"))
            response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
            return response
        }
    }
}
