import Dispatch
import HTTPServer
import ListModel
import ListService
import ServerSupport

/// The view a read asks for (API.md section 9): `sort` or `sort_desc`, `q`, `filter.COLUMN=OP:VALUE`,
/// on the page, the JSON document, rows, streams and the CSV export alike.
package enum ViewRequest {
    /// The validated query of `request` against `columns`; nil when it names no view (the list
    /// as it is). An empty `q=` (a search field submitted empty) counts as no search.
    /// - Throws: `ListQueryError` (400 naming the parameter).
    package static func query(_ request: Request, columns: [Column]) throws -> ListQuery? {
        if request.queryItems.isEmpty { return nil }  // the list as it is, asked for on every first page
        let items = request.queryItems.filter { !($0.name == "q" && $0.value.isEmpty) }
        let query = try ListQuery(parameters: items, columns: columns)
        return query.isIdentity ? nil : query
    }

    /// `snapshot` seen through `query`, from the snapshot's cache of views.
    package static func view(_ snapshot: ListSnapshot, _ query: ListQuery) throws -> ListView {
        try snapshot.cache.view(query) { try snapshot.list.view(query) }
    }

    /// The page `pageQuery` asks for of `snapshot` seen through `query`, with what showing it
    /// needs. It comes from the view (`view`), except while a view read cold (`readsCold`) is
    /// not built: its first rows are read from the list at once (`IndexedList.viewHead`, without
    /// sorting every row) and kept for the pages that end among them; once a page ends in the
    /// second half of them, the view is built in the background for the pages after them
    /// (`ViewBuilds`). A reader of the first pages alone (a poll after each write) never pays
    /// for sorting every row.
    package static func page(_ snapshot: ListSnapshot, _ query: ListQuery, _ pageQuery: ViewPageQuery) throws -> ShownViewPage {
        if let kept = try keptPage(snapshot, query, pageQuery) { return kept }
        if pageQuery.after == nil, readsCold(snapshot, query) {
            let head = try snapshot.list.viewHead(query, rows: max(pageQuery.limit + 1, ServerDefaults.viewHeadRows))
            snapshot.cache.keep(head, for: query)
            if let shown = try page(of: head, snapshot, query, pageQuery) { return shown }
        }
        let view = try view(snapshot, query)
        return view.shown(try view.page(after: pageQuery.after, limit: pageQuery.limit))
    }

    /// The page `pageQuery` asks for from the view's first rows kept in `snapshot`'s cache
    /// (`ViewHead`), when they hold it: a read of a fraction of a millisecond, which needs no
    /// turn; nil otherwise.
    package static func keptPage(_ snapshot: ListSnapshot, _ query: ListQuery, _ pageQuery: ViewPageQuery) throws -> ShownViewPage? {
        guard let head = snapshot.cache.head(query) else { return nil }
        return try page(of: head, snapshot, query, pageQuery)
    }

    /// The page of `head`, starting the view's build in the background once a page reaches the
    /// second half of its rows.
    private static func page(
        of head: ViewHead, _ snapshot: ListSnapshot, _ query: ListQuery, _ pageQuery: ViewPageQuery
    ) throws -> ShownViewPage? {
        guard let shown = try head.page(after: pageQuery.after, limit: pageQuery.limit) else { return nil }
        if head.isNearItsEnd(shown) { ViewBuilds.start(query, of: snapshot) }
        return shown
    }

    /// Turns for reads of views not built yet on large lists (`ServerDefaults.maxConcurrentViewReads`).
    private static let coldReads = DispatchSemaphore(value: ServerDefaults.maxConcurrentViewReads)

    /// The answer `render` makes of what `compute` finds (a view, or a page of one), or of
    /// `found` when the caller has it already (a page of the view's kept first rows:
    /// `keptPage`): made in a turn off the connection's thread (`inTurn`) when it must be
    /// computed and the view is not built yet on a large list (`readsCold`); otherwise now, and
    /// `render` only for a request that does not hold `etag` already.
    package static func answer<Found: Sendable>(
        _ snapshot: ListSnapshot, _ query: ListQuery, etag: String, found: Found? = nil,
        _ compute: @escaping @Sendable () throws -> Found, _ render: @escaping @Sendable (Found) -> Response
    ) throws -> Response {
        guard found == nil, readsCold(snapshot, query) else {
            let found = try found ?? compute()
            return .validated(etag: etag) { render(found) }
        }
        return inTurn(snapshot, query) { render(try compute()) }
    }

    /// Whether reading `snapshot` through `query` may take long: its view is not built yet on a
    /// list of `ServerDefaults.offThreadRows` rows or more (reading or building it takes from 50
    /// ms to a second).
    package static func readsCold(_ snapshot: ListSnapshot, _ query: ListQuery) -> Bool {
        snapshot.list.rowCount >= ServerDefaults.offThreadRows && !snapshot.cache.hasView(query)
    }

    /// `make`'s answer, made off the connection's thread (`Response.offThread`), which meanwhile
    /// serves its other connections, in one of `ServerDefaults.maxConcurrentViewReads` turns
    /// (off the workers nothing else bounds how many sort at once): 503 with `Retry-After` after
    /// `ServerDefaults.viewBuildWaitSeconds` without one; an error thrown, as its answer. The
    /// heap the sort leaves free is trimmed once such work pauses (`afterSorting`).
    package static func inTurn(
        _ snapshot: ListSnapshot, _ query: ListQuery, _ make: @escaping @Sendable () throws -> Response
    ) -> Response {
        .offThread {
            guard coldReads.wait(timeout: .now() + .seconds(ServerDefaults.viewBuildWaitSeconds)) == .success else {
                return HTTPError(
                    .serviceUnavailable, "The server is busy building other views of large lists; try again shortly.",
                    headers: ["Retry-After": "2"]
                ).response
            }
            defer {
                coldReads.signal()
                afterSorting(snapshot)
            }
            do {
                return try make()
            } catch let error as any HTTPResponseError {
                return error.response
            } catch {
                Log.error("a view of \(snapshot.id) (\(query.queryString)) failed: \(String(reflecting: error))")
                return HTTPError(.internalServerError).response
            }
        }
    }

    /// Counts the heap a sort of `snapshot`'s rows left free towards the next trim
    /// (`HeapTrim.afterFreeing`): after a read in a turn, and after a background build.
    static func afterSorting(_ snapshot: ListSnapshot) {
        HeapTrim.afterFreeing(bytes: snapshot.list.rowCount * ServerDefaults.sortBytesFreedPerRow)
    }

    /// The query string of `query` followed by `extra` parameters, for links ("" for none).
    package static func parameters(_ query: ListQuery?, _ extra: String...) -> String {
        ([query?.queryString ?? ""] + extra).filter { !$0.isEmpty }.joined(separator: "&")
    }

    /// The variant part of a view's `ETag`: `v` and the query's fingerprint in hex.
    package static func etagVariant(_ query: ListQuery) -> String {
        "v" + String(query.fingerprint, radix: 16)
    }
}

extension ListQueryError: HTTPResponseError {
    /// 400, naming the parameter at fault.
    public var status: HTTPStatus { .badRequest }
    public var problemDetail: String? { "\(description)" }
}
