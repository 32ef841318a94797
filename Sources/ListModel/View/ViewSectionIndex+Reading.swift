extension ViewSectionIndex {
    /// The entry at `index` (`0..<count`) in view order.
    func entry(at index: Int) -> Entry {
        var rest = index
        for chunk in chunks {
            if rest < chunk.count { return chunk[rest] }
            rest -= chunk.count
        }
        preconditionFailure("view entry index out of range")
    }

    /// The number of entries that come before `end` or are at it (a window's share of the
    /// section); keys are read from `source` when prefixes tie.
    func count(through end: ViewCursor, _ source: ViewKeySource) -> Int {
        let endPrefix = end.sortValue.prefix(head: head)
        func endIsBefore(_ entry: Entry) -> Bool {
            if let order = prefixPrecedes(endPrefix, entry.prefix) { return order }
            if SortValue.prefixIsExact(entry.prefix) { return end.orderKey < source.orderKey(ofRow: entry.rowKey) }
            return end.isBefore(source.key(ofRow: entry.rowKey), descending: descending)
        }
        var total = 0
        for chunk in chunks {
            // Entries are in view order: the ones in the window come first.
            if !endIsBefore(chunk.last!) {
                total += chunk.count
                continue
            }
            return total + lowerBound(chunk.count) { endIsBefore(chunk[$0]) }
        }
        return total
    }

    /// The row keys of the first `count` entries.
    func rowKeys(prefix count: Int) -> [String] {
        var keys: [String] = []
        keys.reserveCapacity(count)
        for chunk in chunks {
            for entry in chunk {
                if keys.count == count { return keys }
                keys.append(entry.rowKey)
            }
        }
        return keys
    }
}

/// The view keys of a list's rows, found by row key: what a view index compares its entries
/// by when their prefixes tie.
struct ViewKeySource {
    let list: IndexedList
    /// The sort column and its index among the list's columns (where rows' cells usually are);
    /// `nil` without a sort.
    let sortColumn: (column: Column, hint: Int)?

    init(list: IndexedList, sortColumn: Column?) {
        self.list = list
        self.sortColumn = sortColumn.map { column in
            (column, list.document.columns.firstIndex { utf8Equal($0.key, column.key) } ?? 0)
        }
    }

    /// The order key of the row `rowKey` (the empty key if the list has no such row, which an
    /// index in step with its list never asks).
    func orderKey(ofRow rowKey: String) -> OrderKey {
        list.orderKey(ofRow: rowKey) ?? OrderKey(rawValue: "")
    }

    /// The view key of the row `rowKey`: its sort value computed again from the row, read in place.
    func key(ofRow rowKey: String) -> ViewKey {
        guard let position = list.position(ofRow: rowKey) else { return ViewKey(sortValue: .empty, orderKey: orderKey(ofRow: rowKey)) }
        var bytes: [UInt8] = []
        if let sortColumn {
            let (section, row) = list.location(ofPosition: position)
            list.document.sections[section].rows.forEachUnsafeElement(in: row..<(row + 1)) { row in
                SortValue.append(cellOf: row, column: sortColumn.column.packedKey, hint: sortColumn.hint, to: &bytes)
            }
        }
        return ViewKey(sortValue: SortValue(bytes: bytes), orderKey: list.orderKeys[position])
    }
}
