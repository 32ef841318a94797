extension IndexedList {
    /// The list at a new version of its document, keeping as many order keys as it can.
    ///
    /// Over the flattened rows of the whole list (so moves across sections and section
    /// reorders count as moves), the rows that stay in relative order — a longest
    /// increasing subsequence of their old positions — keep their keys. Every other row,
    /// new or moved, gets a key between its new neighbours; no kept row is renumbered.
    /// O(n log n) in the number of rows.
    ///
    /// Keys grow when rows are inserted again and again at one spot (about a character per
    /// six inserts). Should a new key pass `Cursor.maxOrderKeyBytes` (some 6,000 inserts
    /// at one spot), every row is given fresh spaced keys instead: the one case where rows
    /// are renumbered, and a cursor issued before may then repeat or skip rows once.
    public func updated(to newDocument: ListDocument) -> IndexedList {
        updated(to: newDocument, maxKeyLength: Cursor.maxOrderKeyBytes)
    }

    func updated(to newDocument: ListDocument, maxKeyLength: Int) -> IndexedList {
        if let appended = updatedInPlace(to: newDocument) { return appended }
        let count = newDocument.rowCount
        var keptNew: [Int] = []
        var keptOld: [Int] = []
        keptNew.reserveCapacity(count)
        keptOld.reserveCapacity(count)
        var position = 0
        for section in newDocument.sections {
            for row in section.rows {
                if let old = positions[row.key] {
                    keptNew.append(position)
                    keptOld.append(old)
                }
                position += 1
            }
        }

        // Fast path: every old row kept, in order (edits of content only, or appends).
        let stayed: [Int]
        if zip(keptOld, keptOld.dropFirst()).allSatisfy({ $0 < $1 }) {
            stayed = Array(keptOld.indices)
        } else {
            stayed = longestIncreasingSubsequence(keptOld)
        }

        var keys = [OrderKey?](repeating: nil, count: count)
        for index in stayed { keys[keptNew[index]] = orderKeys[keptOld[index]] }

        // Fill each run of rows without a key between the keys around it.
        var result: [OrderKey] = []
        result.reserveCapacity(count)
        var runStart = 0
        while runStart < count {
            if let key = keys[runStart] {
                result.append(key)
                runStart += 1
                continue
            }
            var runEnd = runStart
            while runEnd < count, keys[runEnd] == nil { runEnd += 1 }
            let lower = result.last
            let upper = runEnd < count ? keys[runEnd] : nil
            let fresh = OrderKey.keys(between: lower, upper, count: runEnd - runStart)
            if fresh.contains(where: { $0.rawValue.utf8.count > maxKeyLength }) {
                return IndexedList(document: newDocument)
            }
            result += fresh
            runStart = runEnd
        }
        return IndexedList(unchecked: newDocument, orderKeys: result)
    }

    /// The cheap common case: every old row is still at its old position (content edits,
    /// rows appended at the end). Reuses the keys and the position map; `nil` otherwise.
    func updatedInPlace(to newDocument: ListDocument) -> IndexedList? {
        let count = newDocument.rowCount
        guard count >= rowCount else { return nil }
        // Walk the old rows alongside the new ones, comparing keys.
        let oldSections = document.sections
        var oldSection = 0
        var oldRow = 0
        var position = 0
        var appended: [String] = []
        for section in newDocument.sections {
            for row in section.rows {
                if position < rowCount {
                    while oldRow == oldSections[oldSection].rows.count {
                        oldSection += 1
                        oldRow = 0
                    }
                    guard oldSections[oldSection].rows[oldRow].key == row.key else { return nil }
                    oldRow += 1
                } else {
                    appended.append(row.key)
                }
                position += 1
            }
        }
        if appended.isEmpty { return IndexedList(unchecked: newDocument, orderKeys: orderKeys, positions: positions) }
        var newPositions = positions
        for (offset, key) in appended.enumerated() {
            guard newPositions.updateValue(rowCount + offset, forKey: key) == nil else { return nil }
        }
        let keys = orderKeys + OrderKey.keys(between: orderKeys.last, nil, count: appended.count)
        return IndexedList(unchecked: newDocument, orderKeys: keys, positions: newPositions)
    }
}
