import HTMLRenderer
import HTTPServer
import ListModel

/// `GET /`: the HTML index of all lists.
enum IndexRoutes {
    static func register(on router: inout Router, context: ServerContext) {
        router.get("/") { _ in page(context.registry.all()) }
    }

    /// The index page listing `lists` with links.
    static func page(_ lists: [ListSnapshot]) -> Response {
        let summaries = lists.map { snapshot in
            ListSummary(id: snapshot.id, title: snapshot.document.title, rows: snapshot.list.rowCount, version: snapshot.version)
        }
        var response = Response.html(HTMLRenderer().indexPage(summaries))
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Vary"] = "Accept"
        SecurityHeaders.apply(to: &response)
        return response
    }
}
