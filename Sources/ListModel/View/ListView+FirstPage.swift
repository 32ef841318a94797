/// A page of a view with what showing it needs beyond its rows: whether each part ends its
/// section in the view (the section's footer shows), the cursor after the page's last row, and
/// whether the view has any row at all.
public struct ShownViewPage: Sendable, Equatable {
    public var page: ViewPage
    /// Per part of `page`: whether it holds its section's last row in the view.
    public var endsSection: [Bool]
    /// The cursor after the page's last row: `page.next`, or at the view's end the cursor of its
    /// last row; nil when the view has no row.
    public var lastCursor: ViewCursor?
    /// Whether the view has no row.
    public var viewIsEmpty: Bool
}

extension ListView {
    /// `page` of this view, with what showing it needs.
    public func shown(_ page: ViewPage) -> ShownViewPage {
        let lastRows = Dictionary(uniqueKeysWithValues: sections.map { ($0.sectionIndex, $0.rows.last) })
        return ShownViewPage(
            page: page, endsSection: page.parts.map { $0.rows.last == lastRows[$0.sectionIndex] ?? nil },
            lastCursor: page.next ?? (rowCount > 0 ? cursor(atPosition: rowCount - 1) : nil),
            viewIsEmpty: rowCount == 0)
    }
}

extension IndexedList {
    /// The first page of the view of `query` (`view(query).shown(view(query).page(after: nil,
    /// limit:))`), read from the list in one pass without building the view: a sorted section
    /// keeps only the rows that can still be among the page's (`ViewReading.firstRows`), one in
    /// list order is read up to the row after the page's, and the sections after a full page
    /// are only looked at for one more row. For a 1,000,000-row list, sorting all of it is left
    /// for the pages after it.
    ///
    /// - Throws: `ListQueryError` as `ListQuery.validated(for:)` does.
    public func firstViewPage(_ query: ListQuery, limit: Int) throws(ListQueryError) -> ShownViewPage {
        let query = try query.validated(for: document.columns)
        let reading = ViewReading(query, columns: document.columns)
        let limit = max(1, limit)
        var parts: [ViewPage.Part] = []
        var endsSection: [Bool] = []
        var last: ViewCursor?
        var taken = 0
        var more = false
        // Empty sections of the view after a full page: the page shows them only at the view's end.
        var trailing: [Int] = []
        var start = 0  // the list position of the section's first row
        var scratch: [UInt8] = []
        for (sectionIndex, section) in document.sections.enumerated() {
            defer { start += section.rows.count }
            if taken == limit {
                if reading.hasMatch(in: section, scratch: &scratch) {
                    more = true
                    break
                }
                if reading.matcher.keepsAll { trailing.append(sectionIndex) }
                continue
            }
            let first = reading.firstRows(of: section, start: start, in: self, count: limit - taken)
            if first.rows.isEmpty && !reading.matcher.keepsAll { continue }
            parts.append(ViewPage.Part(sectionIndex: sectionIndex, rows: first.rows, continuesSection: false))
            endsSection.append(!first.more)
            if let row = first.rows.last, let key = first.keys.last {
                last = ViewCursor(fingerprint: query.fingerprint, key: key, rowKey: section.rows[row].key, sectionKey: section.key)
            }
            taken += first.rows.count
            if first.more {
                more = true
                break
            }
        }
        if !more {
            parts += trailing.map { ViewPage.Part(sectionIndex: $0, rows: [], continuesSection: false) }
            endsSection += trailing.map { _ in true }
        }
        return ShownViewPage(
            page: ViewPage(parts: parts, next: more ? last : nil), endsSection: endsSection, lastCursor: last,
            viewIsEmpty: taken == 0)
    }
}
