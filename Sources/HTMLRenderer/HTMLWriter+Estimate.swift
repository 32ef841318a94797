import ListModel

extension HTMLWriter {
    /// A generous guess of the size of a table holding `parts`, so the buffer rarely grows
    /// (growing copies what was written so far, and the result is then copied once more).
    ///
    /// More than 256 rows: 32 rows spread over the parts are rendered and measured, plus an
    /// eighth. Fewer: a fixed allowance per column kind (a page of 50 rows that outgrows it
    /// costs little).
    static func estimatedSize(_ doc: ListDocument, parts: [ListPage.Part], columns: ResolvedColumns) -> Int {
        let rows = parts.reduce(0) { $0 + $1.rows.count }
        let fixed = 1024 + doc.title.utf8.count * 2 + parts.count * 160
        guard rows > 256 else { return fixed + rows * rowAllowance(columns) }
        let samples = 32
        var scratch = HTMLWriter(capacity: 4096)
        for sample in 0..<samples {
            var offset = (2 * sample + 1) * rows / (2 * samples)
            for part in parts {
                if offset < part.rows.count {
                    scratch.row(doc.sections[part.sectionIndex].rows[part.rows.lowerBound + offset], columns: columns)
                    break
                }
                offset -= part.rows.count
            }
        }
        let perRow = scratch.count / samples + 1  // and its newline
        return fixed + rows * (perRow + perRow / 8 + 8)
    }

    /// Bytes a row of these columns may take when no row is measured.
    private static func rowAllowance(_ columns: ResolvedColumns) -> Int {
        var bytes = 48
        for index in 0..<columns.count {
            switch columns.plans[index] {
            case .custom: bytes += 64
            case .plain, .number:
                switch columns.columns[index].kind {
                case .text: bytes += 40
                case .number: bytes += 28
                case .link: bytes += 96
                case .image: bytes += 160
                }
            }
        }
        return bytes
    }
}
