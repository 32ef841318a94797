import HTTPServer
import ListService

/// `GET /metrics`: Prometheus text exposition format, version 0.0.4; with `--private` it needs `admin`.
package enum MetricsRoutes {
    package static func register(on router: inout Router, context: ServerContext) {
        router.get("/metrics") { request in
            try context.authorization.requireAdmin(request)
            var response = Response.text(context.metrics.prometheusText(prefix: "list_server_"))
            response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
            response.headers["Cache-Control"] = context.authorization.policy.isPrivate ? "private, no-store" : "no-store"
            return response
        }
    }
}
