import HTTPServer

/// `GET /assets/{path...}`: the static client from `Public/` (see `StaticFiles` for the rules),
/// and `GET /openapi.json`: the API's OpenAPI 3.1 description, `Public/openapi.json`.
enum AssetRoutes {
    static func register(on router: inout Router, context: ServerContext) {
        router.get("/openapi.json") { request in
            try context.assets.response(for: ["openapi.json"], request: request)
        }
        router.get("/assets/{path...}") { request in
            try context.assets.response(for: Array(request.pathSegments.dropFirst()), request: request)
        }
    }
}
