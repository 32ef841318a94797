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
        // Pages link their assets under the content version of when the server started: those
        // never change, so browsers keep them (no revalidation of each module on every load).
        // Another version (a page from before a restart) gets today's files, revalidated.
        router.get("/assets/v/{version}/{path...}") { request in
            let files = request.pathSegments[2] == context.assetsVersion ? context.versionedAssets : context.assets
            return try files.response(for: Array(request.pathSegments.dropFirst(3)), request: request)
        }
        router.get("/assets/{path...}") { request in
            try context.assets.response(for: Array(request.pathSegments.dropFirst()), request: request)
        }
    }
}
