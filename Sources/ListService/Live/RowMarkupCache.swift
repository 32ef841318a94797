import HTMLRenderer
import ListModel
import Synchronization

/// The rendered `<tr>` of each row of one list, kept between writes so that a write renders
/// only the rows it changed (and rows new to a window). Safe to use from several threads: each
/// lookup (and the rendering of a missing row) holds the cache's own lock, a leaf lock.
package final class RowMarkupCache: Sendable {
    private struct Storage {
        package var columns: [Column] = []
        package var entries: [ByteKey: (row: Row, version: Int?, html: String)] = [:]
    }

    private let storage = Mutex(Storage())
    /// Beyond this many rows the cache starts over, so it cannot grow without bound.
    package let capacity: Int

    package init(capacity: Int = 200_000) { self.capacity = capacity }

    /// The markup of `row` as `renderer.row(row, in: document, version: version)` gives it.
    package func html(for row: Row, version: Int?, in document: ListDocument, renderer: HTMLRenderer) -> String {
        storage.withLock { storage in
            if document.columns != storage.columns {
                storage.entries.removeAll(keepingCapacity: true)
                storage.columns = document.columns
            }
            if let entry = storage.entries[ByteKey(row.key)], entry.version == version, entry.row == row { return entry.html }
            if storage.entries.count >= capacity { storage.entries.removeAll(keepingCapacity: true) }
            let html = String(decoding: renderer.row(row, in: document, version: version), as: UTF8.self)
            storage.entries[ByteKey(row.key)] = (row, version, html)
            return html
        }
    }

    /// How many rows are cached.
    package var count: Int { storage.withLock { $0.entries.count } }

    /// Forgets rows that `list` no longer holds, once they are as many as the rows it holds
    /// (and at least 1,024), so deleted rows do not linger until the capacity is reached. The
    /// scan is linear, and happens after at least as many deletions as rows are left.
    package func forgetDeletedRows(keepingRowsOf list: IndexedList) {
        storage.withLock { storage in
            guard storage.entries.count > Swift.max(2 * list.rowCount, 1_024) else { return }
            storage.entries = storage.entries.filter { list.orderKeysByRow[$0.key.string] != nil }
        }
    }
}
