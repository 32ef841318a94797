// Pages of a view: keyset pagination over view keys, as `IndexedList.page(after:limit:)` does
// over order keys. Empty sections (a view without `q` or filters keeps them) belong to the page
// on which they fall: leading ones to the first page, those between the previous page's last
// row and this page's last row to this page, and every remaining one to the last page.

/// One page of a view: which rows of which sections it holds, and where the next begins.
public struct ViewPage: Sendable, Equatable {
    /// Rows of one section, consecutive in the view.
    public struct Part: Sendable, Equatable {
        /// Index into `ListDocument.sections` of the list (not of the view).
        public var sectionIndex: Int
        /// Indexes into that section's `rows`, in view order; may be empty.
        public var rows: [Int]
        /// Whether an earlier page already began this section (its header was shown).
        public var continuesSection: Bool
    }

    /// The parts in list order of their sections.
    public var parts: [Part]
    /// The cursor of the page's last row while more rows remain after it; `nil` at the end.
    public var next: ViewCursor?
}

extension ListView {
    /// The rows strictly after `cursor` in view order (from the start when `nil`), at most
    /// `limit` of them (a `limit` below 1 counts as 1).
    ///
    /// The cursor positions by view key in its row's section (a binary search), so it still
    /// works when its row was deleted, moved or changed, or rows were inserted elsewhere.
    ///
    /// - Throws: `CursorError.otherView` when the cursor was made by another query's view.
    public func page(after cursor: ViewCursor?, limit: Int) throws(CursorError) -> ViewPage {
        page(from: try start(after: cursor), after: cursor, limit: limit)
    }

    /// The view position of the first row after `cursor` (0 for none).
    ///
    /// - Throws: `CursorError.otherView` when the cursor was made by another query's view.
    func start(after cursor: ViewCursor?) throws(CursorError) -> Int {
        guard let cursor else { return 0 }
        guard cursor.fingerprint == fingerprint else { throw .otherView }
        return position(after: cursor)
    }

    /// `page(after:limit:)` given `start`, the view position of the first row after `cursor`.
    func page(from start: Int, after cursor: ViewCursor?, limit: Int) -> ViewPage {
        let end = min(rowCount, start + max(1, limit))
        let next = end < rowCount ? self.cursor(atPosition: end - 1) : nil
        var parts = parts(from: start, to: end)
        if let cursor, let cursorSection = list.sectionIndexes[ByteKey(cursor.sectionKey)] {
            // Empty sections up to the cursor's (now empty when its rows were deleted) were
            // delivered with the rows up to the cursor.
            parts.removeAll { $0.rows.isEmpty && $0.sectionIndex <= cursorSection }
            // The cursor's section was begun on the previous page.
            if let first = parts.first, first.sectionIndex == cursorSection { parts[0].continuesSection = true }
        }
        return ViewPage(parts: parts, next: next)
    }

    /// The sections of `page` holding only its rows, in view order (a page as data).
    public func sections(in page: ViewPage) -> [ListModel.Section] { list.document.sections(in: page) }

    /// The cursor just after the row at view position `position` (`0..<rowCount`).
    public func cursor(atPosition position: Int) -> ViewCursor {
        let (section, index) = location(ofPosition: position)
        let sectionIndex = sections[section].sectionIndex
        let sectionValue = list.document.sections[sectionIndex]
        return ViewCursor(
            fingerprint: fingerprint, key: keys[section][index],
            rowKey: sectionValue.rows[sections[section].rows[index]].key, sectionKey: sectionValue.key)
    }

    /// The view position of the first row after `cursor`.
    func position(after cursor: ViewCursor) -> Int {
        let descending = query.sort?.descending ?? false
        // The cursor's section in the list: by key, or (when it is gone) where its order key falls.
        let listSection: Int
        if let index = list.sectionIndexes[ByteKey(cursor.sectionKey)] {
            listSection = index
        } else {
            let listPosition = list.firstPosition(after: cursor.orderKey)
            guard listPosition < list.rowCount else { return rowCount }
            // The cursor's row was before this row: start with its section.
            let first = lowerBound(sections.count) { sections[$0].sectionIndex >= list.location(ofPosition: listPosition).section }
            return starts[first]
        }
        let viewSection = lowerBound(sections.count) { sections[$0].sectionIndex >= listSection }
        guard viewSection < sections.count, sections[viewSection].sectionIndex == listSection else {
            return starts[viewSection]  // the section has no row in the view: the next one's first
        }
        let keys = keys[viewSection]
        // A cut sort value is made whole from the cursor's row while that row keeps it.
        if cursor.sortValueTruncated, let sort = query.sort, let rowPosition = list.position(ofRow: cursor.rowKey),
            list.orderKeys[rowPosition] == cursor.orderKey
        {
            let whole = SortValue(list.row(atPosition: rowPosition).cells[sort.column])
            if whole.bytes.starts(with: cursor.sortValue.bytes) {
                let key = ViewKey(sortValue: whole, orderKey: cursor.orderKey)
                return starts[viewSection] + lowerBound(keys.count) { keys.comesAfter(key, at: $0, descending: descending) }
            }
        }
        let index = lowerBound(keys.count) { keys.comesAfter(cursor, at: $0, descending: descending) }
        return starts[viewSection] + index
    }

    /// The view section and index in it of a view position.
    func location(ofPosition position: Int) -> (section: Int, row: Int) {
        precondition(position >= 0 && position < rowCount, "view position out of range")
        let section = lowerBound(sections.count) { starts[$0 + 1] > position }
        return (section, position - starts[section])
    }

    /// The parts covering view rows `start..<end`, with the empty sections among them.
    func parts(from start: Int, to end: Int) -> [ViewPage.Part] {
        guard !sections.isEmpty else { return [] }
        var first = lowerBound(sections.count) { starts[$0 + 1] >= start }
        if first < sections.count, starts[first] < start, starts[first + 1] == start { first += 1 }
        let last = end >= rowCount ? sections.count : lowerBound(sections.count) { starts[$0] >= end }
        guard first < last else { return [] }
        return (first..<last).map { section in
            let lower = max(start, starts[section]) - starts[section]
            let upper = max(lower, min(end, starts[section + 1]) - starts[section])
            return ViewPage.Part(
                sectionIndex: sections[section].sectionIndex,
                rows: Array(sections[section].rows[lower..<upper]), continuesSection: lower > 0)
        }
    }
}

extension ListDocument {
    /// The sections of a page of one of this document's views, holding only the page's rows, in
    /// view order.
    public func sections(in page: ViewPage) -> [Section] {
        page.parts.map { part in
            var section = sections[part.sectionIndex]
            let rows = section.rows
            section.rows = ChunkedArray(part.rows.map { rows[$0] })
            return section
        }
    }
}
