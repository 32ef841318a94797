import HTTPServer
import ListService

/// `GET /assets/{path...}`: the static client from `Public/` (see `StaticFiles` for the rules),
/// `GET /openapi.json`: the API's OpenAPI 3.1 description, `Public/openapi.json`, and
/// `GET /favicon.ico`: the icon the pages declare (`Public/favicon.svg`), for browsers that ask
/// for it anyway (a JSON answer opened in a tab).
package enum AssetRoutes {
    package static func register(on router: inout Router, context: ServerContext) {
        router.get("/openapi.json") { request in
            try context.assets.response(for: ["openapi.json"], request: request)
        }
        router.get("/favicon.ico") { request in
            try context.assets.response(for: ["favicon.svg"], request: request)
        }
        router.get("/assets/{path...}") { request in
            try context.assets.response(for: Array(request.pathSegments.dropFirst()), request: request)
        }
    }
}
