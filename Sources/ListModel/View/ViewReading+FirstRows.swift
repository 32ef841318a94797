// The first rows of one section in view order, read without the section's view: what
// `IndexedList.viewHead` keeps.

extension ViewReading {
    /// The first `count` matching rows of `section` in view order (indexes into its rows) with
    /// their view keys, and whether more rows of it match. `start` is the list position of the
    /// section's first row (for order keys).
    ///
    /// Sorted, one pass: each row's sort value is written into one reused buffer and kept only
    /// while it can still be among the first `count` (beside at most `2 × count` others), so a
    /// section of 1,000,000 rows costs its sort values once and no array of its size. The rows
    /// are read in the order that finds the kept ones soonest (`readingOrder`). In list order, it
    /// stops at the row after the `count`-th.
    func firstRows(of section: Section, start: Int, in list: IndexedList, count: Int) -> FirstRows {
        guard let sortColumn else { return firstRowsInListOrder(of: section, start: start, in: list, count: count) }
        var scratch: [UInt8] = []
        var best = BestRows(count: count, descending: descending)
        var empties = FirstIndexes(count: count)
        var matching = 0
        var value: [UInt8] = []
        for block in readingOrder(of: section, column: sortColumn) {
            var index = block.lowerBound
            section.rows.forEachUnsafeElement(in: block) { row in
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
                    empties.offer(index)  // last, in list order
                } else {
                    best.offer(value, row: index)
                }
            }
        }
        var rows: [Int] = []
        var keys: [ViewKey] = []
        for (row, value) in best.sorted() {
            rows.append(row)
            keys.append(ViewKey(sortValue: SortValue(bytes: value), orderKey: list.orderKeys[start + row]))
        }
        for row in empties.sorted().prefix(count - rows.count) {
            rows.append(row)
            keys.append(ViewKey(sortValue: SortValue(bytes: []), orderKey: list.orderKeys[start + row]))
        }
        return FirstRows(rows: rows, keys: keys, more: matching > rows.count)
    }

    /// The order in which `firstRows` reads `section`'s rows: list order, unless the section
    /// runs against the view (nine rows spread over it, first to last, each come before the one
    /// ahead of it in the view: a list built by appends, read newest first): then block by block
    /// from the end, so that the rows kept are met first and most of the others are left after
    /// their value's first bytes (one pass in list order offered every row, and cost more than
    /// sorting the whole view).
    private func readingOrder(of section: Section, column: (index: Int, key: PackedKey)) -> [Range<Int>] {
        let rowCount = section.rows.count
        guard rowCount > 2 * Self.readingBlock else { return [0..<rowCount] }
        var previous: [UInt8] = []
        for sample in 0...8 {
            var value: [UInt8] = []
            section.rows.withUnsafeElement(at: sample * (rowCount - 1) / 8) {
                SortValue.append(cellOf: $0, column: column.key, hint: column.index, to: &value)
            }
            let order = compareBytes(value, previous)
            if value.isEmpty || (sample > 0 && (descending ? order < 0 : order > 0)) { return [0..<rowCount] }
            previous = value
        }
        return stride(from: rowCount, to: 0, by: -Self.readingBlock).map { max(0, $0 - Self.readingBlock)..<$0 }
    }

    /// Rows read in list order at a time when a section is read from its end.
    static let readingBlock = 256

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

/// The `count` smallest indexes among those offered (in any order), in order.
struct FirstIndexes {
    let count: Int
    private var indexes: [Int] = []

    init(count: Int) { self.count = count }

    mutating func offer(_ index: Int) {
        indexes.append(index)
        if indexes.count >= 2 * max(1, count) { indexes = sorted() }
    }

    func sorted() -> [Int] { Array(indexes.sorted().prefix(count)) }
}
