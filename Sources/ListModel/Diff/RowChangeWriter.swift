/// Writes the operations for kept rows whose content changed, at their final positions.
///
/// Changed cells get `replace`, `add` or `remove`, in column order (cells outside the
/// columns last, by key), then `href` and `style`; the row is replaced whole when that is
/// smaller. Its buffers are reused from row to row: thousands of updated rows must not cost
/// thousands of allocations.
struct RowChangeWriter {
    private var changes: [(order: Int, key: String, before: CellValue?, after: CellValue?)] = []
    private var fine = PatchWriter()

    /// Appends to `writer` the operations turning row `old` into `new` (same key) at `path`.
    /// - Parameter compareCells: false when the caller knows the cells are equal.
    mutating func append(
        from old: Row, to new: Row, compareCells: Bool, at path: OperationPath, columns: [Column],
        into writer: inout PatchWriter
    ) {
        fine.removeAll()
        if compareCells { appendCellChanges(from: old.cells, to: new.cells, at: path, columns: columns) }
        if old.href != new.href {
            let hrefPath = path.appending("href")
            switch (old.href, new.href) {
            case (nil, let href?): fine.add(hrefPath, .string(href), valueSize: CanonicalSize.string(href))
            case (_?, let href?): fine.replace(hrefPath, .string(href), valueSize: CanonicalSize.string(href))
            default: fine.remove(hrefPath)
            }
        }
        if old.style != new.style {
            let style = new.style.rawValue
            fine.replace(path.appending("style"), .string(style), valueSize: CanonicalSize.string(style))
        }
        // Weigh against one replace of the row: a cheap lower bound of its size first.
        let rowLowerBound = CanonicalSize.rowLowerBound(new)
        if fine.contentSize <= PatchWriter.valueOperationSize(op: "replace", path: path, valueSize: rowLowerBound)
            || fine.contentSize <= PatchWriter.valueOperationSize(op: "replace", path: path, valueSize: CanonicalSize.row(new))
        {
            writer.append(contentsOf: fine)
        } else {
            writer.replace(path, new.json(columns: columns), valueSize: CanonicalSize.row(new))
        }
    }

    /// Each new cell looked up in the old row, then the old cells the new row lacks.
    private mutating func appendCellChanges(
        from old: [String: CellValue], to new: [String: CellValue], at path: OperationPath, columns: [Column]
    ) {
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
        if changes.count > 1 { changes.sort { ($0.order, $0.key) < ($1.order, $1.key) } }
        for change in changes {
            let cellPath = path.appending("cells", change.key)
            switch (change.before, change.after) {
            case (nil, let value?): fine.add(cellPath, value.json, valueSize: CanonicalSize.cell(value))
            case (_?, let value?): fine.replace(cellPath, value.json, valueSize: CanonicalSize.cell(value))
            default: fine.remove(cellPath)
            }
        }
    }

    /// The position of the column `key` names, or past the end for a key no column has.
    private static func order(of key: String, in columns: [Column]) -> Int {
        columns.firstIndex { $0.key == key } ?? columns.count
    }
}
