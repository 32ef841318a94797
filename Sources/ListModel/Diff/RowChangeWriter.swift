/// Writes the operations for kept rows whose content changed, at their final positions.
///
/// Changed cells get `replace`, `add` or `remove`, in column order (cells outside the
/// columns last, by key), then `href` and `style`; the row is replaced whole when that is
/// smaller. Thousands of rows may change, so this avoids per-row allocations and hashing
/// where it can: its buffer is reused, and cells are compared in lockstep when both rows'
/// dictionaries have the same layout (a row edited in place), by lookups otherwise.
struct RowChangeWriter {
    private var changes: [(order: Int, key: String, before: CellValue?, after: CellValue?)] = []

    /// Appends to `writer` the operations turning the row at `old` into the one at `new` (same
    /// key), now at `row` of `section`, when they differ. Both are read in place: equal bytes
    /// (rows sharing their storage, as in a document edited in place) settle a row with a few
    /// word compares, equal packed cells (a document read again) and equal `href` and `style`
    /// with one comparison of the cells' bytes.
    mutating func appendIfChanged(
        from old: UnsafePointer<Row>, to new: UnsafePointer<Row>, section: Int, row: Int, columns: [Column],
        into writer: inout PatchWriter
    ) {
        if sameBytes(old, new, count: MemoryLayout<Row>.size) { return }
        let compareCells = !old.pointee.cells.sameBytes(as: new.pointee.cells)
        guard compareCells || !optionalUTF8Equal(old.pointee.href, new.pointee.href) || old.pointee.style != new.pointee.style else {
            return
        }
        append(
            from: old.pointee, to: new.pointee, compareCells: compareCells, section: section, row: row,
            columns: columns, into: &writer)
    }

    /// Appends to `writer` the operations turning row `old` into `new` (same key), now at
    /// `row` of `section`.
    /// - Parameter compareCells: false when the caller knows the cells are equal.
    mutating func append(
        from old: Row, to new: Row, compareCells: Bool, section: Int, row: Int, columns: [Column],
        into writer: inout PatchWriter
    ) {
        let mark = writer.mark
        if compareCells {
            findCellChanges(from: old.cells, to: new.cells, columns: columns)
            for change in changes {
                let path = OperationPath.cell(section, row, change.key)
                switch (change.before, change.after) {
                case (nil, let value?): writer.add(path, value.json, valueSize: CanonicalSize.cell(value))
                case (_?, let value?): writer.replace(path, value.json, valueSize: CanonicalSize.cell(value))
                default: writer.remove(path)
                }
            }
        }
        let path = OperationPath.row(section, row)
        if !optionalUTF8Equal(old.href, new.href) {
            let hrefPath = path.appending("href")
            switch (old.href, new.href) {
            case (nil, let href?): writer.add(hrefPath, .string(href), valueSize: CanonicalSize.string(href))
            case (_?, let href?): writer.replace(hrefPath, .string(href), valueSize: CanonicalSize.string(href))
            default: writer.remove(hrefPath)
            }
        }
        if old.style != new.style {
            let style = new.style.rawValue
            writer.replace(path.appending("style"), .string(style), valueSize: CanonicalSize.string(style))
        }
        // Weigh against one replace of the row: a cheap lower bound of its size first.
        let fineSize = writer.size - mark.size
        if fineSize <= PatchWriter.valueOperationSize(op: "replace", path: path, valueSize: CanonicalSize.rowLowerBound(new)) {
            return
        }
        let rowSize = CanonicalSize.row(new)
        if fineSize > PatchWriter.valueOperationSize(op: "replace", path: path, valueSize: rowSize) + 1 {
            writer.rollBack(to: mark)
            writer.replace(path, new.json(columns: columns), valueSize: rowSize)
        }
    }

    /// Fills `changes` with the cells that differ, in column order.
    private mutating func findCellChanges(
        from old: RowCells, to new: RowCells, columns: [Column]
    ) {
        changes.removeAll(keepingCapacity: true)
        if old.sameBytes(as: new) { return }  // equal cells packed alike (a document read again)
        if !findAlignedChanges(from: old, to: new, columns: columns) {
            changes.removeAll(keepingCapacity: true)
            var matched = 0
            for (key, after) in new {
                let before = old[key]
                if before != nil { matched += 1 }
                if before != after { changes.append((Self.order(of: key, in: columns), key, before, after)) }
            }
            if matched < old.count {
                for (key, before) in old where new[key] == nil {
                    changes.append((Self.order(of: key, in: columns), key, before, nil))
                }
            }
        }
        if changes.count > 1 { changes.sort { ($0.order, $0.key) < ($1.order, $1.key) } }
    }

    /// Compares two dictionaries entry by entry in storage order, which works when they hold
    /// the same keys in the same buckets (one is an edited copy of the other). Returns false,
    /// having found nothing reliable, as soon as the keys do not line up.
    private mutating func findAlignedChanges(
        from old: RowCells, to new: RowCells, columns: [Column]
    ) -> Bool {
        guard old.count == new.count else { return false }
        var oldIndex = old.startIndex
        var newIndex = new.startIndex
        while oldIndex != old.endIndex {
            let (key, before) = old[oldIndex]
            let (newKey, after) = new[newIndex]
            guard utf8Equal(key, newKey) else { return false }
            if before != after { changes.append((Self.order(of: key, in: columns), key, before, after)) }
            old.formIndex(after: &oldIndex)
            new.formIndex(after: &newIndex)
        }
        return true
    }

    /// The position of the column `key` names, or past the end for a key no column has.
    private static func order(of key: String, in columns: [Column]) -> Int {
        columns.firstIndex { utf8Equal($0.key, key) } ?? columns.count
    }
}
