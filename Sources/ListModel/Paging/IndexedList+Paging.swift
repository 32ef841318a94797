// Pages and windows: keyset pagination over order keys.
//
// Empty sections belong to the page on which they fall: leading ones to the first page,
// those between the previous page's last row and this page's last row to this page,
// and once no rows remain after a page, every remaining section to it.

extension IndexedList {
    /// The rows strictly after `cursor` (from the start when `nil`), at most `limit` of them.
    ///
    /// The cursor positions by order key (a binary search), so it still works when its
    /// row was deleted or moved. `next` is the cursor of the page's last row while rows
    /// remain after it, else `nil`. A `limit` below 1 counts as 1. A cursor with a section
    /// key (as the list makes them) keeps empty sections from showing twice when its row
    /// was deleted.
    public func page(after cursor: Cursor?, limit: Int) -> ListPage {
        let start = cursor.map { firstPosition(after: $0.orderKey) } ?? 0
        let end = min(rowCount, start + max(1, limit))
        let next = end < rowCount ? self.cursor(atPosition: end - 1) : nil
        var parts = parts(from: start, to: end)
        // When the cursor's row is gone, empty sections at its position that come before
        // its section were on the previous page.
        if let cursor {
            let owned = emptySectionsBefore(cursor, at: start)
            parts.removeFirst(parts.prefix { owned.contains($0.sectionIndex) }.count)
            // The cursor's section was begun on the previous page, even if its row is gone.
            if let first = parts.first, let key = cursor.sectionKey, utf8Equal(document.sections[first.sectionIndex].key, key) {
                parts[0].continuesSection = true
            }
        }
        return ListPage(parts: parts, next: next)
    }

    /// The cursor after the last row of `page`, even when it is the list's last row;
    /// `nil` for a page without rows. A client subscribing `until=` this cursor gets
    /// exactly the rows it has loaded.
    public func lastCursor(of page: ListPage) -> Cursor? {
        guard let part = page.parts.last(where: { !$0.rows.isEmpty }) else { return nil }
        return cursor(atPosition: sectionStarts[part.sectionIndex] + part.rows.upperBound - 1)
    }

    /// The prefix of the list up to and including the position of `cursor` (by order key),
    /// with the sections it touches; same empty-section rule as pages.
    public func window(through cursor: Cursor) -> ListDocument {
        let end = firstPosition(after: cursor.orderKey)
        var window = windowDocument(end: end)
        // As for pages: empty sections up to a deleted cursor row's section stay in the window.
        let owned = emptySectionsBefore(cursor, at: end)
        if end < rowCount, !owned.isEmpty {
            window.sections += owned.map { document.sections[$0] }
        }
        return window
    }

    /// The empty sections at flattened `position` up to the section of the cursor's row
    /// (included when it is now empty): when that row was deleted, they were delivered
    /// with the rows up to it.
    func emptySectionsBefore(_ cursor: Cursor, at position: Int) -> Range<Int> {
        guard let key = cursor.sectionKey, let cursorSection = sectionIndexes[ByteKey(key)] else { return 0..<0 }
        // The empty sections at `position` follow the section holding the row before it.
        let first = position > 0 ? location(ofPosition: position - 1).section + 1 : 0
        var last = first
        while last <= cursorSection, document.sections[last].rows.isEmpty,
            sectionStarts[last] == position
        {
            last += 1
        }
        return first..<last
    }

    /// The first `limit` rows (all when there are fewer), with the sections they touch.
    public func window(limit: Int) -> ListDocument {
        windowDocument(end: min(rowCount, max(0, limit)))
    }

    /// The cursor that ends `window(limit:)`: the cursor of its last row, `nil` when empty.
    public func windowEnd(limit: Int) -> Cursor? {
        let end = min(rowCount, max(0, limit))
        return end > 0 ? cursor(atPosition: end - 1) : nil
    }

    /// How many rows `window(through:)` holds.
    public func windowRowCount(through cursor: Cursor) -> Int { firstPosition(after: cursor.orderKey) }

    func windowDocument(end: Int) -> ListDocument {
        var window = document
        window.sections = document.sections(in: parts(from: 0, to: end))
        return window
    }

    /// The parts covering rows `start..<end`, with the empty sections that fall among them.
    func parts(from start: Int, to end: Int) -> [ListPage.Part] {
        let sectionCount = document.sections.count
        guard sectionCount > 0 else { return [] }
        // First: the first section ending at or after `start`, unless it holds rows and
        // ends exactly there (its rows were on an earlier page).
        var first = lowerBound(sectionCount) { sectionStarts[$0 + 1] >= start }
        if first < sectionCount, sectionStarts[first] < start, sectionStarts[first + 1] == start { first += 1 }
        // Last (exclusive): at the end of the list, every section; else those starting before `end`.
        let last = end >= rowCount ? sectionCount : lowerBound(sectionCount) { sectionStarts[$0] >= end }
        guard first < last else { return [] }
        var parts: [ListPage.Part] = []
        parts.reserveCapacity(last - first)
        for section in first..<last {
            let base = sectionStarts[section]
            let lower = max(start, base) - base
            let upper = max(lower, min(end, sectionStarts[section + 1]) - base)
            parts.append(ListPage.Part(sectionIndex: section, rows: lower..<upper))
        }
        return parts
    }
}

extension ListDocument {
    /// The sections of `parts` holding only the parts' rows (a page or window as data).
    public func sections(in parts: [ListPage.Part]) -> [Section] {
        parts.map { part in
            var section = sections[part.sectionIndex]
            if part.rows != section.rows.indices { section.rows = ChunkedArray(section.rows[part.rows]) }
            return section
        }
    }
}
