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
                    if sameBytes(before, after, count: MemoryLayout<Row>.size) { return }
                    let cellsOffset = MemoryLayout<Row>.offset(of: \Row.cells)!
                    let compareCells = !sameBytes(
                        UnsafeRawPointer(before) + cellsOffset, UnsafeRawPointer(after) + cellsOffset,
                        count: MemoryLayout<RowCells>.size)
                    if compareCells || before.pointee.href != after.pointee.href
                        || before.pointee.style != after.pointee.style
                    {
                        rowChanges.append(
                            from: before.pointee, to: after.pointee, compareCells: compareCells,
                            section: newSection, row: newRow - newStart, columns: columns, into: &writer)
                    }
                }
            }
        }
        self.writer = writer
    }

    private func oldSectionOf(newRow: Int) -> Int { Int(match.oldRowSection[Int(match.newRowOld[newRow])]) }
}

/// Whether `count` bytes at `a` and `b` are equal. Equal bytes of a value mean an equal value
/// (same inline contents, same storage references); different bytes say nothing.
@inline(__always)
private func sameBytes<T>(_ a: UnsafePointer<T>, _ b: UnsafePointer<T>, count: Int) -> Bool {
    sameBytes(UnsafeRawPointer(a), UnsafeRawPointer(b), count: count)
}

@inline(__always)
private func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
    var offset = 0
    while offset + 8 <= count {
        if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
            return false
        }
        offset += 8
    }
    while offset < count {
        if a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) { return false }
        offset += 1
    }
    return true
}
