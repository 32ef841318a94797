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
        if let text = request.query("limit") {
            guard let limit = Int(text), (1...Self.maxLimit).contains(limit) else {
                throw HTTPError(.badRequest, "limit must be a whole number from 1 to \(Self.maxLimit).")
            }
            self.limit = limit
        } else {
            limit = Self.defaultLimit
        }
        after = try request.query("after").map { text in try Cursor(decoding: text) }
    }

    /// The query string of the page after `cursor` with this page's limit.
    package func nextQuery(after cursor: Cursor) -> String {
        "after=\(cursor.encoded)" + (limit == Self.defaultLimit ? "" : "&limit=\(limit)")
    }
}
