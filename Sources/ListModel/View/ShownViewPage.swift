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
