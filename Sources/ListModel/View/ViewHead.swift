/// The first rows of a view, read from the list in one pass without building the view
/// (`IndexedList.viewHead`): a `ListView` holding only them, and whether that is the whole view.
/// Pages that end before its last row are the built view's pages (`page(after:limit:)`), so a
/// server answers a large list's first pages of a view while the whole view is still sorting.
public struct ViewHead: Sendable {
    /// The view's first rows: its sections up to the last of them, in order, the last one cut.
    public let view: ListView
    /// Whether `view` is the whole view (no row of the view after its rows).
    public let isWhole: Bool

    /// The page after `cursor` as the whole view gives it, with what showing it needs; nil when
    /// the head cannot tell it (the page would reach or pass the head's last row).
    ///
    /// - Throws: `CursorError.otherView` when the cursor was made by another query's view.
    public func page(after cursor: ViewCursor?, limit: Int) throws(CursorError) -> ShownViewPage? {
        // Up to its last row, the head positions a cursor as the whole view does: its sections
        // are the view's first ones and the last one's rows a prefix of the view's.
        let start = try view.start(after: cursor)
        guard isWhole || start + max(1, limit) < view.rowCount else { return nil }
        return view.shown(view.page(from: start, after: cursor, limit: limit))
    }

    /// Whether `shown`, one of the head's pages, ends in the second half of a head that is not
    /// the whole view: a reader walking the pages will soon need the rest of the view.
    public func isNearItsEnd(_ shown: ShownViewPage) -> Bool {
        guard !isWhole, let end = try? view.start(after: shown.lastCursor) else { return false }
        return 2 * end >= view.rowCount
    }
}

extension IndexedList {
    /// The first `rows` rows of the view of `query` (all of them when it has no more), read in
    /// one pass without building the view: a sorted section keeps only the rows that can still
    /// be among them (`ViewReading.firstRows`), one in list order is read up to the row after
    /// them, and the sections after them are only looked at for one more row. For a
    /// 1,000,000-row list, sorting all of it is left for the pages after them.
    ///
    /// - Throws: `ListQueryError` as `ListQuery.validated(for:)` does.
    public func viewHead(_ query: ListQuery, rows: Int) throws(ListQueryError) -> ViewHead {
        let query = try query.validated(for: document.columns)
        let reading = ViewReading(query, columns: document.columns)
        let count = max(1, rows)
        var sections: [ListView.Section] = []
        var keys: [ViewKeys] = []
        var taken = 0
        var isWhole = true
        // Empty sections of the view after the head's rows: the view's only when it has no more rows.
        var trailing: [Int] = []
        var start = 0  // the list position of the section's first row
        var scratch: [UInt8] = []
        for (sectionIndex, section) in document.sections.enumerated() {
            defer { start += section.rows.count }
            if taken == count {
                if reading.hasMatch(in: section, scratch: &scratch) {
                    isWhole = false
                    break
                }
                if reading.matcher.keepsAll { trailing.append(sectionIndex) }
                continue
            }
            let first = reading.firstRows(of: section, start: start, in: self, count: count - taken)
            if first.rows.isEmpty && !reading.matcher.keepsAll { continue }
            sections.append(ListView.Section(sectionIndex: sectionIndex, rows: first.rows))
            keys.append(ViewKeys(first.keys))
            taken += first.rows.count
            if first.more {
                isWhole = false
                break
            }
        }
        if isWhole {
            sections += trailing.map { ListView.Section(sectionIndex: $0, rows: []) }
            keys += trailing.map { _ in ViewKeys() }
        }
        return ViewHead(view: ListView(list: self, query: query, sections: sections, keys: keys), isWhole: isWhole)
    }
}
