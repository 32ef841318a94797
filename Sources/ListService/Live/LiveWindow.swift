import ListModel

/// The rows a `view=html` subscriber has loaded: a prefix of the list up to a position.
///
/// The end is an order key, so rows inserted before it join the window and rows deleted
/// leave it, while rows added after it stay outside: the window grows only through `…/more`
/// (API.md section 5), and `more` in the view tells the client when rows lie beyond it.
package enum LiveWindow: Hashable, Sendable {
    /// No rows (a client that has loaded none, e.g. on an empty list).
    case empty
    /// Every row up to and including this position (by order key).
    case through(Cursor)

    /// The window of the first `limit` rows of `list` (all of them when there are fewer).
    package init(limit: Int, in list: IndexedList) {
        self = list.windowEnd(limit: limit).map(LiveWindow.through) ?? .empty
    }

    /// How many rows of `list` the window holds.
    package func rowCount(in list: IndexedList) -> Int {
        switch self {
        case .empty: return 0
        case .through(let cursor): return list.windowRowCount(through: cursor)
        }
    }

    /// The window grown by `extra` rows of `list` (up to its last row).
    package func extended(by extra: Int, in list: IndexedList) -> LiveWindow {
        let grown = LiveWindow(limit: rowCount(in: list) + extra, in: list)
        return grown == .empty ? self : grown
    }

    /// The window's part of the document: its sections and rows, with the same empty-section
    /// rule as pages.
    package func document(of list: IndexedList) -> ListDocument {
        switch self {
        case .empty: return list.window(limit: 0)
        case .through(let cursor): return list.window(through: cursor)
        }
    }

    /// The encoded cursor a client passes as `until` to reopen this window; nil when empty
    /// (reopen with `limit=0`).
    package var until: String? {
        if case .through(let cursor) = self { return cursor.encoded }
        return nil
    }
}
