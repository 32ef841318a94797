import HTMLRenderer
import ListModel

/// The rendered `<tr>` of each row of one list, kept between writes so that a write renders
/// only the rows it changed (and rows new to a window). Used only under the hub's lock.
final class RowMarkupCache: @unchecked Sendable {
    private var columns: [Column] = []
    private var entries: [String: (row: Row, html: String)] = [:]
    /// Beyond this many rows the cache starts over, so it cannot grow without bound.
    let capacity: Int

    init(capacity: Int = 200_000) { self.capacity = capacity }

    /// The markup of `row` as `renderer.row(row, in: document)` gives it.
    func html(for row: Row, in document: ListDocument, renderer: HTMLRenderer) -> String {
        if document.columns != columns {
            entries.removeAll(keepingCapacity: true)
            columns = document.columns
        }
        if let entry = entries[row.key], entry.row == row { return entry.html }
        if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
        let html = String(decoding: renderer.row(row, in: document), as: UTF8.self)
        entries[row.key] = (row, html)
        return html
    }

    /// How many rows are cached.
    var count: Int { entries.count }

    /// Forgets rows that `list` no longer holds, once they are as many as the rows it holds
    /// (and at least 1,024), so deleted rows do not linger until the capacity is reached. The
    /// scan is linear, and happens after at least as many deletions as rows are left.
    func forgetDeletedRows(keepingRowsOf list: IndexedList) {
        guard entries.count > Swift.max(2 * list.rowCount, 1_024) else { return }
        entries = entries.filter { list.orderKeysByRow[$0.key] != nil }
    }
}
