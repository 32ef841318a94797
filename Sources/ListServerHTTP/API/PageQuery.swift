import HTTPServer
import ListModel
import ListService

/// The `limit` and `after` of a page request.
package struct PageQuery {
    package static let defaultLimit = 50
    package static let maxLimit = 500

    package let limit: Int
    package let after: Cursor?

    /// Reads `limit` (1…500, default 50) and `after` (a cursor) from the query.
    /// - Throws: 400 for a limit out of range or a malformed cursor.
    package init(_ request: Request) throws {
        limit = try Self.limit(request, default: Self.defaultLimit, max: Self.maxLimit)
        after = try request.query("after").map { text in try Cursor(decoding: text) }
    }

    /// The request's `limit`: a whole number from 1 to `max`, `defaultLimit` when absent (pages
    /// of rows, of a view, of the index).
    /// - Throws: 400 naming the range otherwise.
    package static func limit(_ request: Request, default defaultLimit: Int, max: Int) throws -> Int {
        guard let text = request.query("limit") else { return defaultLimit }
        guard let limit = Int(text), (1...max).contains(limit) else {
            throw HTTPError(.badRequest, "limit must be a whole number from 1 to \(max).")
        }
        return limit
    }

    /// The query string of the page after `cursor` with this page's limit.
    package func nextQuery(after cursor: Cursor) -> String {
        "after=\(cursor.encoded)" + (limit == Self.defaultLimit ? "" : "&limit=\(limit)")
    }
}
