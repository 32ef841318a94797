// Phase 5 of the keyed diff for rows: every kept row is compared with its old self, and
// changed ones get their operations at their final positions.
//
// This loop touches every kept row, so it avoids copying rows (three retains each): it walks
// runs of new rows that come from the same old section with both row arrays borrowed as
// buffers, and first compares the rows' bytes. Rows that share their storage (a document
// edited in place, the common case for a server applying edits) are then equal at the cost
// of a few word compares; others are compared field by field.

extension KeyedListDiff {
    mutating func updateRows() {
        var rowChanges = RowChangeWriter()
        for newSection in new.sections.indices {
            let end = match.newRowStart[newSection + 1]
            var runStart = match.newRowStart[newSection]
            while runStart < end {
                guard match.isKept(newRow: runStart) else {
                    runStart += 1
                    continue
                }
                let oldSection = oldSectionOf(newRow: runStart)
                var runEnd = runStart + 1
                while runEnd < end && (!match.isKept(newRow: runEnd) || oldSectionOf(newRow: runEnd) == oldSection) {
                    runEnd += 1
                }
                updateRows(runStart..<runEnd, of: newSection, from: oldSection, using: &rowChanges)
                runStart = runEnd
            }
        }
    }

    /// Compares the kept rows among new rows `run` of `newSection`, all from `oldSection`.
    private mutating func updateRows(
        _ run: Range<Int>, of newSection: Int, from oldSection: Int, using rowChanges: inout RowChangeWriter
    ) {
        let newStart = match.newRowStart[newSection]
        let oldStart = match.oldRowStart[oldSection]
        let oldRowsArray = old.sections[oldSection].rows
        let newRowsArray = new.sections[newSection].rows
        let columns = new.columns
        var writer = self.writer
        self.writer = PatchWriter()  // keep `writer` uniquely referenced while it grows
        for newRow in run where match.isKept(newRow: newRow) {
            oldRowsArray.withUnsafeElement(at: Int(match.newRowOld[newRow]) - oldStart) { before in
                newRowsArray.withUnsafeElement(at: newRow - newStart) { after in
                    rowChanges.appendIfChanged(
                        from: before, to: after, section: newSection, row: newRow - newStart, columns: columns,
                        into: &writer)
                }
            }
        }
        self.writer = writer
    }

    private func oldSectionOf(newRow: Int) -> Int { Int(match.oldRowSection[Int(match.newRowOld[newRow])]) }
}
