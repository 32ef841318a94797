// Matching rows by key across the whole list, in two passes.

extension KeyedMatch {
    /// For each old row its section, and the flat index of its match on either side (-1: none).
    ///
    /// Every key is hashed once (`KeyIndex.hash`), in a walk over each document's rows; after
    /// that, keys are compared by hash, and a key's bytes, which lie scattered in memory, are
    /// read again only to confirm an equal hash. Pass 1 follows the old order: most rows come
    /// right after the row matched before them, so the new row's hash is compared with those of
    /// the next few unmatched old rows (restarting at the top of the old section at each kept
    /// section). Pass 2 puts only the old rows pass 1 left in a ``KeyIndex`` and looks up only
    /// the new rows it left. Keys are unique, so a key match is the match whichever pass finds
    /// it; a repeated key (an invalid document) matches at most once, later copies counting as
    /// new.
    static func matchRows(
        old: ListDocument, new: ListDocument, oldRowStart: [Int], newRowStart: [Int], newSectionOld: [Int]
    ) -> (oldRowSection: [Int32], oldRowNew: [Int32], newRowOld: [Int32]) {
        let oldCount = oldRowStart[old.sections.count]
        let newCount = newRowStart[new.sections.count]
        var oldRowSection = [Int32](repeating: 0, count: oldCount)
        for section in old.sections.indices {
            for row in oldRowStart[section]..<oldRowStart[section + 1] { oldRowSection[row] = Int32(section) }
        }
        var oldRowNew = [Int32](repeating: -1, count: oldCount)
        var newRowOld = [Int32](repeating: -1, count: newCount)
        // Keys are compared in place (`withUnsafeElement`): copying a `Row` out to read its key
        // costs three retains and releases.
        let oldRows = old.sections.map(\.rows)
        func oldKeyEquals(_ row: Int, _ key: String) -> Bool {
            let section = Int(oldRowSection[row])
            return oldRows[section].withUnsafeElement(at: row - oldRowStart[section]) { utf8Equal($0.pointee.key, key) }
        }

        // Pass 1: the next few old rows after the last match, compared by hash; a key is
        // read again only to confirm an equal hash.
        let oldHashes = keyHashes(old.sections, count: oldCount)
        var newHashes = [UInt64](repeating: 0, count: newCount)
        let window = 8
        var unmatchedNew = 0
        var next = 0
        for section in new.sections.indices {
            if newSectionOld[section] >= 0 { next = oldRowStart[newSectionOld[section]] }
            let rows = new.sections[section].rows
            var newRow = newRowStart[section]
            rows.forEachUnsafeElement(in: rows.indices) { row in
                let hash = keyHash(row.pointee.key)
                newHashes[newRow] = hash
                let end = min(next + window, oldCount)
                var candidate = next
                while candidate < end {
                    if oldHashes[candidate] == hash && oldRowNew[candidate] < 0 && oldKeyEquals(candidate, row.pointee.key) {
                        break
                    }
                    candidate += 1
                }
                if candidate < end {
                    oldRowNew[candidate] = Int32(newRow)
                    newRowOld[newRow] = Int32(candidate)
                    next = candidate + 1
                } else {
                    unmatchedNew += 1
                }
                newRow += 1
            }
        }
        guard unmatchedNew > 0 else { return (oldRowSection, oldRowNew, newRowOld) }

        // Pass 2: the rest by hash.
        var unmatchedOld = 0
        for row in oldRowNew.indices where oldRowNew[row] < 0 { unmatchedOld += 1 }
        guard unmatchedOld > 0 else { return (oldRowSection, oldRowNew, newRowOld) }
        var index = KeyIndex(capacity: oldCount)
        for row in oldRowNew.indices where oldRowNew[row] < 0 {
            index.insert(hash: oldHashes[row], position: Int32(row))
        }
        for section in new.sections.indices {
            let rows = new.sections[section].rows
            let start = newRowStart[section]
            for row in rows.indices where newRowOld[start + row] < 0 {
                let match = rows.withUnsafeElement(at: row) { newRow in
                    index.find(hash: newHashes[start + row]) { candidate in
                        oldRowNew[Int(candidate)] < 0 && oldKeyEquals(Int(candidate), newRow.pointee.key)
                    }
                }
                if match >= 0 {
                    oldRowNew[Int(match)] = Int32(start + row)
                    newRowOld[start + row] = match
                }
            }
        }
        return (oldRowSection, oldRowNew, newRowOld)
    }

    /// The hash (`KeyIndex.hash`) of every row's key, in flat order.
    private static func keyHashes(_ sections: [Section], count: Int) -> [UInt64] {
        var hashes: [UInt64] = []
        hashes.reserveCapacity(count)
        for section in sections {
            section.rows.forEachUnsafeElement(in: section.rows.indices) { hashes.append(keyHash($0.pointee.key)) }
        }
        return hashes
    }

    @inline(__always) private static func keyHash(_ key: String) -> UInt64 {
        key.utf8.withContiguousStorageIfAvailable { KeyIndex.hash($0) } ?? KeyIndex.hash(key)
    }
}
