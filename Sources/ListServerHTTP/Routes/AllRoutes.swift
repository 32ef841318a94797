import HTTPServer
import ListService

/// Every route of the server. Each feature adds its routes in its own `Routes/*Routes.swift`
/// file and is registered here.
package func makeRouter(context: ServerContext) -> Router {
    var router = Router()
    router.errorPage = { [renderer = context.renderer, assetsPath = context.assetsPath] request, error in
        ErrorPages.page(for: request, error, renderer: renderer, assetsPath: assetsPath)
    }
    HealthRoutes.register(on: &router, context: context)
    IndexRoutes.register(on: &router, context: context)
    AssetRoutes.register(on: &router, context: context)
    MetricsRoutes.register(on: &router, context: context)
    ListRoutes.register(on: &router, context: context)
    RowRoutes.register(on: &router, context: context)
    PageRoutes.register(on: &router, context: context)
    EventRoutes.register(on: &router, context: context)
    LinkRoutes.register(on: &router, context: context)
    return router
}
