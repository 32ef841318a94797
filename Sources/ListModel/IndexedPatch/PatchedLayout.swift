/// A patched list, validated: the new document and, for each of its sections and rows, where
/// it came from, which is what order keys, the published patch and the store's rows follow.
struct PatchedLayout {
    /// One section of the new document.
    struct SectionSource {
        /// The old section this is (moved or edited or not), or nil for a section the patch added.
        var origin: Int?
        /// True when the section is the old one, members and rows, untouched.
        var untouched: Bool
        /// Its rows, in order.
        var items: [RowSource]
    }

    /// Rows of the new document.
    enum RowSource {
        /// Untouched old rows `rows` of old section `section`, in their order (perhaps moved).
        case run(section: Int, rows: Range<Int>)
        /// A row the patch added or changed, validated.
        case touched(Row)

        var count: Int {
            if case .run(_, let rows) = self { return rows.count }
            return 1
        }
    }

    var document: ListDocument
    var sections: [SectionSource]
}

/// Whether row location `a` comes before `b` in document order.
func before(_ a: (section: Int, row: Int), _ b: (section: Int, row: Int)) -> Bool {
    a.section < b.section || (a.section == b.section && a.row < b.row)
}
