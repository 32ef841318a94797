/// One page of a list: which rows of which sections it holds, and where the next begins.
///
/// A page never copies rows: each part names a section of the document and a range of
/// its rows. A part that `continuesSection` (its range does not start at 0, or the row
/// before it was deleted) continues a section from the previous page (no header); one
/// whose range reaches the section's end shows the footer.
public struct ListPage: Sendable, Equatable {
    /// A run of consecutive rows of one section.
    public struct Part: Sendable, Equatable {
        /// Index into `ListDocument.sections`.
        public var sectionIndex: Int
        /// Indexes into that section's `rows`; may be empty for a section with no rows.
        public var rows: Range<Int>
        /// Whether an earlier page already began this section (its header was shown): true
        /// when `rows` does not start at 0, and for the section of a cursor whose row was
        /// deleted since. Renderers show the header only when this is false.
        public var continuesSection: Bool

        public init(sectionIndex: Int, rows: Range<Int>) {
            self.sectionIndex = sectionIndex
            self.rows = rows
            self.continuesSection = rows.lowerBound > 0
        }

        public init(sectionIndex: Int, rows: Range<Int>, continuesSection: Bool) {
            self.sectionIndex = sectionIndex
            self.rows = rows
            self.continuesSection = continuesSection
        }
    }

    /// The parts in document order.
    public var parts: [Part]
    /// The cursor of the page's last row while more rows remain after it; `nil` at the end.
    public var next: Cursor?

    public init(parts: [Part], next: Cursor?) {
        self.parts = parts
        self.next = next
    }
}
