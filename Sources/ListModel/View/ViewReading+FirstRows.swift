// The first rows of one section in view order, read without the section's view: what
// `IndexedList.viewHead` keeps.

extension ViewReading {
    /// The first `count` matching rows of `section` in view order (indexes into its rows) with
    /// their view keys, and whether more rows of it match. `start` is the list position of the
    /// section's first row (for order keys).
    ///
    /// Sorted, one pass: each row's sort value is written into one reused buffer and kept only
    /// while it can still be among the first `count` (beside at most `2 × count` others), so a
    /// section of 1,000,000 rows costs its sort values once and no array of its size. In list
    /// order, it stops at the row after the `count`-th.
    func firstRows(of section: Section, start: Int, in list: IndexedList, count: Int) -> FirstRows {
        guard let sortColumn else { return firstRowsInListOrder(of: section, start: start, in: list, count: count) }
        var scratch: [UInt8] = []
        var best = BestRows(count: count, descending: descending)
        var empties: [Int] = []
        var matching = 0
        var value: [UInt8] = []
        var index = 0
        section.rows.forEachUnsafeElement(in: 0..<section.rows.count) { row in
            defer { index += 1 }
            guard matcher.keepsAll || matcher.matches(row.pointee, scratch: &scratch) else { return }
            matching += 1
            value.removeAll(keepingCapacity: true)
            // Most rows are left after reading their value's first bytes.
            if SortValue.appendHead(cellOf: row, column: sortColumn.key, hint: sortColumn.index, to: &value) {
                guard best.mightKeep(head: value) else { return }
                value.removeAll(keepingCapacity: true)
                SortValue.append(cellOf: row, column: sortColumn.key, hint: sortColumn.index, to: &value)
            }
            if value.isEmpty {
                if empties.count < count { empties.append(index) }  // last, in list order
            } else {
                best.offer(value, row: index)
            }
        }
        var rows: [Int] = []
        var keys: [ViewKey] = []
        for (row, value) in best.sorted() {
            rows.append(row)
            keys.append(ViewKey(sortValue: SortValue(bytes: value), orderKey: list.orderKeys[start + row]))
        }
        for row in empties.prefix(count - rows.count) {
            rows.append(row)
            keys.append(ViewKey(sortValue: SortValue(bytes: []), orderKey: list.orderKeys[start + row]))
        }
        return FirstRows(rows: rows, keys: keys, more: matching > rows.count)
    }

    /// `firstRows` of a view without a sort: the matching rows in list order, read up to the one
    /// after the `count`-th.
    private func firstRowsInListOrder(of section: Section, start: Int, in list: IndexedList, count: Int) -> FirstRows {
        var scratch: [UInt8] = []
        var rows: [Int] = []
        var more = false
        struct Enough: Error {}
        var index = 0
        try? section.rows.forEachUnsafeElement(in: 0..<section.rows.count) { row in
            defer { index += 1 }
            guard matcher.keepsAll || matcher.matches(row.pointee, scratch: &scratch) else { return }
            if rows.count == count {
                more = true
                throw Enough()
            }
            rows.append(index)
        }
        let keys = rows.map { ViewKey(sortValue: SortValue(bytes: []), orderKey: list.orderKeys[start + $0]) }
        return FirstRows(rows: rows, keys: keys, more: more)
    }
}

/// What `ViewReading.firstRows` found in one section.
struct FirstRows {
    /// Indexes into the section's rows, in view order.
    var rows: [Int]
    /// Their view keys.
    var keys: [ViewKey]
    /// Whether more of the section's rows match.
    var more: Bool
}
