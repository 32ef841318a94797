import HTMLRenderer
import HTTPServer
import ListModel
import ListService

/// `GET /`: the HTML index of all lists (with `--private`, of those the caller may read).
package enum IndexRoutes {
    package static func register(on router: inout Router, context: ServerContext) {
        router.get("/") { request in
            let readable = try context.authorization.readableLists(request)
            return page(context.registry.all().filter { readable($0.id) })
        }
    }

    /// The index page listing `lists` with links.
    package static func page(_ lists: [ListSnapshot]) -> Response {
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
