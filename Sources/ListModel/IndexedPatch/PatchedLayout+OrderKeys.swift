// Order keys and store rows of a patched list, from where its rows came from.
//
// The rows that keep their keys are the most rows whose old positions still increase (a
// longest increasing subsequence weighted by run length, over runs and single rows: a handful
// of items for a small patch); every other row gets a key between its new neighbours'.

extension PatchedLayout {
    /// One stretch of the new list, in document order: a run of old rows or one new row.
    struct Item {
        /// The old flattened position of its first row, when the rows existed before
        /// (a run; or a row whose key the old list had).
        var oldStart: Int?
        var count: Int
        /// Whether its rows keep their order keys.
        var kept = false
    }

    /// The new list's order keys, and which rows the store must write and delete.
    struct Keys {
        var orderKeys: ChunkedArray<OrderKey>
        var map: OrderKeyMap
        /// Keys of rows to write, in document order.
        var written: [String]
        /// Keys of old rows that are gone.
        var removed: [String]
    }

    /// The items of the new list, in document order.
    func items(in list: IndexedList) -> [Item] {
        var starts: [Int] = []
        starts.reserveCapacity(list.document.sections.count)
        var start = 0
        for section in list.document.sections {
            starts.append(start)
            start += section.rows.count
        }
        var items: [Item] = []
        for section in sections {
            for source in section.items {
                switch source {
                case .run(let origin, let rows):
                    items.append(Item(oldStart: starts[origin] + rows.lowerBound, count: rows.count))
                case .touched(let row):
                    items.append(Item(oldStart: list.position(ofRow: row.key), count: 1))
                }
            }
        }
        return items
    }

    /// Order keys for the new list (nil when a new key would be longer than `maxKeyLength`:
    /// the list must then be keyed afresh), and the rows to write and delete.
    func keys(from list: IndexedList, maxKeyLength: Int) -> Keys? {
        var items = items(in: list)
        markKept(&items)
        let total = items.reduce(0) { $0 + $1.count }
        let allKept = items.allSatisfy(\.kept)
        var written: [String] = []
        let removed = removedKeys(items, list: list)
        if allKept, total == list.rowCount {
            // Every row is where it was: the keys are the old ones.
            var map = list.orderKeyMap
            collectWritten(items, list: list, fresh: [], keys: [], into: &written, map: &map)
            return Keys(orderKeys: list.orderKeys, map: map, written: written, removed: removed)
        }
        // Kept runs share the old list's chunks of keys; only chunks cut at a change are copied.
        var keys = ChunkedArray<OrderKey>()
        var fresh: [Bool] = []  // per item: keys given anew
        fresh.reserveCapacity(items.count)
        var index = 0
        while index < items.count {
            let item = items[index]
            if item.kept, let start = item.oldStart {
                // Kept items that follow one another in the old list (the runs either side of
                // a section boundary) are appended as one range: a cut there would copy the
                // chunk of keys around the boundary, and there are as many as sections.
                var end = start + item.count
                index += 1
                fresh.append(false)
                while index < items.count, items[index].kept, items[index].oldStart == end {
                    end += items[index].count
                    index += 1
                    fresh.append(false)
                }
                keys.append(contentsOf: list.orderKeys, range: start..<end)
                continue
            }
            var end = index
            var count = 0
            while end < items.count, !items[end].kept {
                count += items[end].count
                end += 1
            }
            let upper = end < items.count ? items[end].oldStart.map { list.orderKeys[$0] } : nil
            let made = OrderKey.keys(between: keys.last, upper, count: count)
            if made.contains(where: { $0.rawValue.utf8.count > maxKeyLength }) { return nil }
            keys.append(contentsOf: made)
            fresh += repeatElement(true, count: end - index)
            index = end
        }
        var map = list.orderKeyMap
        for key in removed { map.remove(key) }
        collectWritten(items, list: list, fresh: fresh, keys: keys, into: &written, map: &map)
        return Keys(orderKeys: keys, map: map, written: written, removed: removed)
    }

    /// Appends to `written` the rows the store must write: rows with new keys, rows in another
    /// section than before, and changed rows; gives rows with new keys (`fresh` per item; none
    /// when empty) their keys in `map`.
    func collectWritten(
        _ items: [Item], list: IndexedList, fresh: [Bool], keys: ChunkedArray<OrderKey>,
        into written: inout [String], map: inout OrderKeyMap
    ) {
        var itemIndex = 0
        var position = 0
        for (sectionIndex, section) in sections.enumerated() {
            let sectionKey = document.sections[sectionIndex].key
            for source in section.items {
                let isFresh = !fresh.isEmpty && fresh[itemIndex]
                switch source {
                case .run(let origin, let rows):
                    let old = list.document.sections[origin]
                    if !isFresh, utf8Equal(old.key, sectionKey) { break }
                    for (offset, row) in rows.enumerated() {
                        let key = old.rows[row].key
                        written.append(key)
                        if isFresh { map.set(key, keys[position + offset]) }
                    }
                case .touched(let row):
                    if isFresh {
                        map.set(row.key, keys[position])
                    } else if let start = items[itemIndex].oldStart {
                        let (oldSection, oldRow) = list.location(ofPosition: start)
                        let old = list.document.sections[oldSection]
                        if utf8Equal(old.key, sectionKey), old.rows[oldRow] == row { break }
                    }
                    written.append(row.key)
                }
                itemIndex += 1
                position += source.count
            }
        }
    }

    /// Marks the items that keep their keys: all of them when their old positions increase
    /// (the usual case), else a heaviest increasing run of them.
    func markKept(_ items: inout [Item]) {
        var last = -1
        var increasing = true
        for item in items {
            guard let start = item.oldStart else { continue }
            guard start > last else {
                increasing = false
                break
            }
            last = start + item.count - 1
        }
        if increasing {
            for index in items.indices where items[index].oldStart != nil { items[index].kept = true }
            return
        }
        for index in heaviestIncreasing(items) { items[index].kept = true }
    }

    /// The indexes of a heaviest subsequence of items with old positions, by count, whose old
    /// positions increase: O(m log m) with a Fenwick tree of best weights over position ranks.
    func heaviestIncreasing(_ items: [Item]) -> [Int] {
        let candidates = items.indices.filter { items[$0].oldStart != nil }
        let ranks = candidates.sorted { items[$0].oldStart! < items[$1].oldStart! }
        var rank = [Int](repeating: 0, count: items.count)
        for (order, index) in ranks.enumerated() { rank[index] = order + 1 }
        var tree = [(weight: Int, item: Int)](repeating: (0, -1), count: ranks.count + 1)
        var previous = [Int](repeating: -1, count: items.count)
        var best = (weight: 0, item: -1)
        for index in candidates {
            // The best chain ending below this rank.
            var query = rank[index] - 1
            var found = (weight: 0, item: -1)
            while query > 0 {
                if tree[query].weight > found.weight { found = tree[query] }
                query -= query & -query
            }
            let weight = found.weight + items[index].count
            previous[index] = found.item
            var update = rank[index]
            while update < tree.count {
                if weight > tree[update].weight { tree[update] = (weight, index) }
                update += update & -update
            }
            if weight > best.weight { best = (weight, index) }
        }
        var chain: [Int] = []
        var cursor = best.item
        while cursor >= 0 {
            chain.append(cursor)
            cursor = previous[cursor]
        }
        return chain.reversed()
    }

    /// Keys of old rows that no item covers.
    func removedKeys(_ items: [Item], list: IndexedList) -> [String] {
        var covered = items.compactMap { item in item.oldStart.map { $0..<$0 + item.count } }
        covered.sort { $0.lowerBound < $1.lowerBound }
        var removed: [String] = []
        var next = 0
        func removeUpTo(_ end: Int) {
            guard next < end else { return }
            var (section, row) = list.location(ofPosition: next)
            for _ in next..<end {
                while row >= list.document.sections[section].rows.count {
                    section += 1
                    row = 0
                }
                removed.append(list.document.sections[section].rows[row].key)
                row += 1
            }
        }
        for range in covered {
            removeUpTo(range.lowerBound)
            next = max(next, range.upperBound)
        }
        removeUpTo(list.rowCount)
        return removed
    }
}
