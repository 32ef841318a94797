/// How a view reads a list's rows: which match its query, and each one's sort value. Shared by
/// the built view (`ListView`) and its first rows read without it (`IndexedList.viewHead`).
struct ViewReading {
    let matcher: RowMatcher
    /// The sort column's index among the list's columns and its key, when the view sorts.
    let sortColumn: (index: Int, key: PackedKey)?
    let descending: Bool

    /// - Precondition: `query` was validated for `columns` (`ListQuery.validated(for:)`).
    init(_ query: ListQuery, columns: [Column]) {
        matcher = RowMatcher(query, columns: columns)
        sortColumn = query.sort.map { sort in
            let index = columns.firstIndex { utf8Equal($0.key, sort.column) }!
            return (index, columns[index].packedKey)
        }
        descending = query.sort?.descending ?? false
    }

    var sorts: Bool { sortColumn != nil }

    /// The indexes of `section`'s matching rows in list order, and their view keys (each row's
    /// sort value written into one arena: no allocation per row). `orderKeys` is at the
    /// section's first row, and is left after its last.
    func matchingRows(
        of section: Section, orderKeys: inout ChunkedArray<OrderKey>.Iterator, scratch: inout [UInt8]
    ) -> (rows: [Int], keys: ViewKeys) {
        var rows: [Int] = []
        var keys = ViewKeys()
        var rowIndex = 0
        // Rows read in place: copying each out of its chunk would retain and release it.
        section.rows.forEachUnsafeElement(in: 0..<section.rows.count) { row in
            defer { rowIndex += 1 }
            let orderKey = orderKeys.next()!
            guard matcher.keepsAll || matcher.matches(row.pointee, scratch: &scratch) else { return }
            rows.append(rowIndex)
            keys.append(orderKey: orderKey) { arena in
                guard let sortColumn else { return }
                SortValue.append(cellOf: row, column: sortColumn.key, hint: sortColumn.index, to: &arena)
            }
        }
        return (rows, keys)
    }

    /// Whether `section` has a row the view shows.
    func hasMatch(in section: Section, scratch: inout [UInt8]) -> Bool {
        if matcher.keepsAll { return !section.rows.isEmpty }
        struct Found: Error {}
        do {
            try section.rows.forEachUnsafeElement(in: 0..<section.rows.count) { row in
                if matcher.matches(row.pointee, scratch: &scratch) { throw Found() }
            }
            return false
        } catch {
            return true
        }
    }
}
