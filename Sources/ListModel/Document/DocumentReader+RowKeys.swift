// The row-key check of a whole document, in batches.
//
// A million rows put a million keys into a table of several megabytes at random places: one
// cache miss each, and checked row by row the misses come one after another (the reading of
// the row between them is too long for the processor to overlap them). Checked 64 at a time,
// the table's lines are fetched for the whole batch at once (`RowKeyTable.insert(_:)`).

extension DocumentReader {
    /// How many row keys wait to be checked at most.
    static var rowKeyBatch: Int { 64 }

    /// Queues the key of the row at `row` of `section` for the check against the rows before
    /// it, and checks the queue when full. A repeated key is kept in `repeatedRowKey`: the
    /// caller throws it (`throwRepeatedRowKey`) after each section, at the end, and before any
    /// other error, so that it is still the first error in document order.
    @inline(__always)
    mutating func checkRowKeyLater(_ key: String, section: Int, row: Int) {
        pendingRowKeys.append(RowKeyTable.Pending(key: key, section: section, row: row))
        if pendingRowKeys.count >= Self.rowKeyBatch { checkPendingRowKeys() }
    }

    /// Checks the queued row keys in order, keeping the first repeated one.
    mutating func checkPendingRowKeys() {
        guard !pendingRowKeys.isEmpty else { return }
        if repeatedRowKey == nil, let (pending, first) = rowPlaces.insert(pendingRowKeys) {
            repeatedRowKey = Failure(
                pointer: JSONPointer(tokens: [String(pending.section), "rows", String(pending.row), "key"]),
                message: duplicateRowKeyMessage(pending.key, firstAt: first))
        }
        pendingRowKeys.removeAll(keepingCapacity: true)
    }

    /// Throws the first repeated row key found, if any (the pointer is relative to `/sections`);
    /// with `all`, checks the queued keys first.
    mutating func throwRepeatedRowKey(checkingPending all: Bool) throws(Failure) {
        if all { checkPendingRowKeys() }
        if let repeatedRowKey { throw repeatedRowKey }
    }
}
