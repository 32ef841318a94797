import HTMLRenderer
import HTTPServer
import ListService

/// Errors a browser navigates to are HTML pages, not problem+json text: a person who follows a
/// stale link, opens a missing list or a private server sees what happened and where to go.
///
/// Only a browser's navigation gets one (`GET`/`HEAD` with `Sec-Fetch-Mode: navigate`, or, from a
/// browser that does not send it, an `Accept` naming `application/xhtml+xml` as browsers'
/// navigations do); API clients, the static client's fetches (which ask for JSON or `<tbody>`
/// fragments and read the problem) and every other method keep problem+json. The status and header fields (`WWW-Authenticate`, `Retry-After`,
/// `Allow`) stay those of the problem answer.
package enum ErrorPages {
    package static func page(
        for request: Request, _ error: any HTTPResponseError, renderer: HTMLRenderer,
        assetsPath: String
    ) -> Response? {
        guard request.method == .get || request.method == .head, isNavigation(request),
            error.status.code >= 400
        else { return nil }
        let (hint, links) = guidance(for: error.status.code, request: request)
        var response = Response.html(
            renderer.errorPage(
                status: error.status.code, title: error.problemTitle,
                detail: error.problemDetail, hint: hint, links: links,
                assetsPath: assetsPath),
            status: error.status)
        for field in error.responseHeaders { response.headers[field.name] = field.value }
        response.headers["Cache-Control"] = "no-store"
        SecurityHeaders.apply(to: &response)
        return response
    }

    private static func isNavigation(_ request: Request) -> Bool {
        if let mode = request.headers["Sec-Fetch-Mode"] { return mode.lowercased() == "navigate" }
        return request.headers["Accept"]?.lowercased().contains("application/xhtml+xml") == true
    }

    /// What to tell a person, and where they can go: never to the index when it would refuse
    /// them too (a 401 or 403: a private server, or a view link that no longer works).
    private static func guidance(for status: Int, request: Request) -> (String?, [(href: String, text: String)]) {
        switch status {
        case 401:
            return (
                "The lists on this server are private. Open the view link you were given, or ask "
                    + "the list's owner for a new one.", []
            )
        case 403:
            return ("Ask the list's owner for a new view link.", [])
        case 404:
            return (nil, [("/", "All lists")])
        case 410:
            return ("Its owner deleted it. If a list is made again under this address, it will show here.", [("/", "All lists")])
        case 503:
            return ("This is usually brief: reload the page in a moment.", [("/", "All lists")])
        default:
            return (nil, [("/", "All lists")])
        }
    }
}
