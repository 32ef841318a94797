/// One page of a list: which rows of which sections it holds, and where the next begins.
///
/// A page never copies rows: each part names a section of the document and a range of
/// its rows. A part whose range does not start at 0 continues a section from the
/// previous page (no header); one whose range reaches the section's end shows the footer.
public struct ListPage: Sendable, Equatable {
    /// A run of consecutive rows of one section.
    public struct Part: Sendable, Equatable {
        /// Index into `ListDocument.sections`.
        public var sectionIndex: Int
        /// Indexes into that section's `rows`; may be empty for a section with no rows.
        public var rows: Range<Int>

        public init(sectionIndex: Int, rows: Range<Int>) {
            self.sectionIndex = sectionIndex
            self.rows = rows
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
