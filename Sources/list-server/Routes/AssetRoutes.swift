import HTTPServer

/// `GET /assets/{path...}`: the static client from `Public/` (see `StaticFiles` for the rules).
enum AssetRoutes {
    static func register(on router: inout Router, context: ServerContext) {
        router.get("/assets/{path...}") { request in
            try context.assets.response(for: Array(request.pathSegments.dropFirst()), request: request)
        }
    }
}
