import HTMLRenderer
import HTTPServer
import ListModel

/// `GET /`: the HTML index of all lists.
enum IndexRoutes {
    static func register(on router: inout Router, context: ServerContext) {
        router.get("/") { _ in
            // The store is not wired in yet: the index lists nothing.
            let lists: [ListSummary] = []
            var response = Response.html(HTMLRenderer().indexPage(lists))
            response.headers["Content-Security-Policy"] = "default-src 'self'; img-src 'self' https: data:"
            response.headers["X-Content-Type-Options"] = "nosniff"
            return response
        }
    }
}
