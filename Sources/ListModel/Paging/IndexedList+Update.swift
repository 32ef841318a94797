extension IndexedList {
    /// The list at a new version of its document, keeping as many order keys as it can.
    ///
    /// Over the flattened rows of the whole list (so moves across sections and section
    /// reorders count as moves), the rows that stay in relative order — a longest
    /// increasing subsequence of their old keys — keep their keys. Every other row, new or
    /// moved, gets a key between its new neighbours; no kept row is renumbered.
    ///
    /// The rows before the first change and after the last keep their keys outright, so a
    /// local edit costs a walk over the row keys plus work for the changed stretch only;
    /// the worst case is O(n log n).
    ///
    /// Keys grow when rows are inserted again and again at one spot (about a character per
    /// six inserts). Should a new key pass `Cursor.maxOrderKeyBytes` (some 6,000 inserts
    /// at one spot), every row is given fresh spaced keys instead: the one case where rows
    /// are renumbered, and a cursor issued before may then repeat or skip rows once.
    public func updated(to newDocument: ListDocument) -> IndexedList {
        updated(to: newDocument, maxKeyLength: Cursor.maxOrderKeyBytes)
    }

    func updated(to newDocument: ListDocument, maxKeyLength: Int) -> IndexedList {
        if let sameRows = updatedInPlace(to: newDocument) { return sameRows }
        let rowKeys = self.rowKeys
        let newKeys = flattenedRowKeys(newDocument)
        let oldCount = rowKeys.count
        let newCount = newKeys.count
        let common = min(oldCount, newCount)
        var prefix = 0
        while prefix < common, utf8Equal(rowKeys[prefix], newKeys[prefix]) { prefix += 1 }
        var suffix = 0
        while suffix < common - prefix, utf8Equal(rowKeys[oldCount - 1 - suffix], newKeys[newCount - 1 - suffix]) { suffix += 1 }
        let oldMiddle = prefix..<(oldCount - suffix)
        let newMiddle = prefix..<(newCount - suffix)
        if oldMiddle.isEmpty && newMiddle.isEmpty {
            return IndexedList(unchecked: newDocument, orderKeys: orderKeys, orderKeyMap: orderKeyMap)
        }
        let lower = prefix > 0 ? orderKeys[prefix - 1] : nil
        let upper = suffix > 0 ? orderKeys[oldCount - suffix] : nil

        // Rows of the changed stretch that were there before, and the longest run of them
        // still in order: those keep their keys.
        var keptOffsets: [Int] = []
        var keptKeys: [OrderKey] = []
        for index in newMiddle {
            guard let key = orderKeyMap[newKeys[index]] else { continue }
            if let lower, key <= lower { continue }  // only in a document with repeated keys
            if let upper, key >= upper { continue }
            keptOffsets.append(index - prefix)
            keptKeys.append(key)
        }
        // The old position of each kept row, by merging the kept keys (sorted: they nearly
        // are) with the old stretch's keys; old rows not met are gone from the map.
        var map = orderKeyMap
        var byKey = Array(keptKeys.indices)
        byKey.sort { keptKeys[$0] < keptKeys[$1] }
        var oldPositions = [Int](repeating: -1, count: keptKeys.count)
        var next = 0
        for index in oldMiddle {
            if next < byKey.count, keptKeys[byKey[next]] == orderKeys[index] {
                oldPositions[byKey[next]] = index
                next += 1
            } else {
                map.remove(rowKeys[index])
            }
        }
        var middle = [OrderKey?](repeating: nil, count: newMiddle.count)
        for index in longestIncreasingSubsequence(oldPositions) { middle[keptOffsets[index]] = keptKeys[index] }

        // Fill each run of rows without a key between the keys around it.
        var middleKeys: [OrderKey] = []
        middleKeys.reserveCapacity(middle.count)
        var runStart = 0
        while runStart < middle.count {
            if let key = middle[runStart] {
                middleKeys.append(key)
                runStart += 1
                continue
            }
            var runEnd = runStart
            while runEnd < middle.count, middle[runEnd] == nil { runEnd += 1 }
            let before = middleKeys.last ?? lower
            let after = runEnd < middle.count ? middle[runEnd] : upper
            let fresh = OrderKey.keys(between: before, after, count: runEnd - runStart)
            if fresh.contains(where: { $0.rawValue.utf8.count > maxKeyLength }) {
                return IndexedList(document: newDocument)
            }
            middleKeys += fresh
            runStart = runEnd
        }

        // Beyond the deleted rows, the map changes only for new and re-keyed rows.
        let stayed = middle.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        if stayed < middle.count {
            for offset in middle.indices where middle[offset] == nil { map.set(newKeys[prefix + offset], middleKeys[offset]) }
        }
        var keys = ChunkedArray<OrderKey>()
        keys.append(contentsOf: orderKeys, range: 0..<prefix)
        keys.append(contentsOf: middleKeys)
        keys.append(contentsOf: orderKeys, range: (oldCount - suffix)..<oldCount)
        return IndexedList(unchecked: newDocument, orderKeys: keys, orderKeyMap: map)
    }

    /// The cheap common case: every old row is still at its old position (content edits,
    /// rows appended at the end). Walks both documents side by side; `nil` otherwise.
    func updatedInPlace(to newDocument: ListDocument) -> IndexedList? {
        // Both lists' rows are walked chunk by chunk, as arrays: indexing a `ChunkedArray` row by
        // row would search its chunks, and its iterator copies each row.
        var oldChunks = document.sections.lazy.flatMap(\.rows.chunks).makeIterator()
        var oldRows: [Row] = []
        var oldRow = 0
        var appended: [String] = []
        var oldLeft = rowCount
        for section in newDocument.sections {
            for chunk in section.rows.chunks {
                let rows = chunk.elements
                for index in rows.indices {
                    if oldLeft > 0 {
                        while oldRow == oldRows.count {
                            oldRows = oldChunks.next()!.elements
                            oldRow = 0
                        }
                        guard utf8Equal(oldRows[oldRow].key, rows[index].key) else { return nil }
                        oldRow += 1
                        oldLeft -= 1
                    } else {
                        appended.append(rows[index].key)
                    }
                }
            }
        }
        guard oldLeft == 0 else { return nil }  // old rows left over
        if appended.isEmpty {
            return IndexedList(unchecked: newDocument, orderKeys: orderKeys, orderKeyMap: orderKeyMap)
        }
        let fresh = OrderKey.keys(between: orderKeys.last, nil, count: appended.count)
        var map = orderKeyMap
        for (key, orderKey) in zip(appended, fresh) {
            guard map.insert(key, orderKey) else { return nil }  // a repeated key
        }
        var keys = orderKeys
        keys.append(contentsOf: fresh)
        return IndexedList(unchecked: newDocument, orderKeys: keys, orderKeyMap: map)
    }
}
