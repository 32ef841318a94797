/// The `count` rows that come first in view order among the (non-empty) sort values offered,
/// ordered as `ViewOrder` orders a section: by the values' first 16 bytes, then the whole
/// values, then list order (their `row`s; rows may be offered in any order).
struct BestRows {
    private struct Entry {
        var high: UInt64
        var low: UInt64
        var row: Int
        var value: Range<Int>
    }

    let count: Int
    let descending: Bool
    private var entries: [Entry] = []
    /// The entries' sort values, one after another.
    private var arena: [UInt8] = []
    /// The `count`-th entry after the last cut: a value that does not come before it is not kept.
    private var worst: Entry?

    init(count: Int, descending: Bool) {
        self.count = max(1, count)
        self.descending = descending
    }

    mutating func offer(_ value: [UInt8], row: Int) {
        let (high, low) = value.withUnsafeBufferPointer { ViewOrder.prefix($0) }
        if let worst,
            !ViewOrder.precedes(
                (high, low), (worst.high, worst.low), descending: descending,
                whole: {
                    value.withUnsafeBufferPointer { a in
                        arena.withUnsafeBufferPointer { compareBytes(a, UnsafeBufferPointer(rebasing: $0[worst.value])) }
                    }
                }, listOrder: row < worst.row)
        {
            return
        }
        entries.append(Entry(high: high, low: low, row: row, value: arena.count..<arena.count + value.count))
        arena.append(contentsOf: value)
        if entries.count == 2 * count { cut() }
    }

    /// Whether a value beginning with `head` (at least its first 16 bytes) might still be kept:
    /// false when its prefix comes after the worst kept one's, so its whole value need not be read.
    func mightKeep(head: [UInt8]) -> Bool {
        guard let worst else { return true }
        // Equal prefixes might go either way: the whole values decide, so count them as equal.
        let prefix = head.withUnsafeBufferPointer { ViewOrder.prefix($0) }
        return ViewOrder.precedes(prefix, (worst.high, worst.low), descending: descending, whole: { 0 }, listOrder: true)
    }

    /// The rows kept, first `count`, in view order, with their sort values.
    mutating func sorted() -> [(row: Int, value: [UInt8])] {
        cut()
        return entries.map { ($0.row, Array(arena[$0.value])) }
    }

    /// Sorts the entries, keeps the first `count` (their values in a new arena), notes the worst.
    private mutating func cut() {
        let descending = descending
        arena.withUnsafeBufferPointer { bytes in
            entries.sort { a, b in
                ViewOrder.precedes(
                    (a.high, a.low), (b.high, b.low), descending: descending,
                    whole: { compareBytes(UnsafeBufferPointer(rebasing: bytes[a.value]), UnsafeBufferPointer(rebasing: bytes[b.value])) },
                    listOrder: a.row < b.row)
            }
        }
        if entries.count > count { entries.removeLast(entries.count - count) }
        var kept: [UInt8] = []
        for index in entries.indices {
            let value = entries[index].value
            entries[index].value = kept.count..<kept.count + value.count
            kept.append(contentsOf: arena[value])
        }
        arena = kept
        worst = entries.count == count ? entries.last : nil
    }
}
