/// One section's rows of a maintained view, ordered by view key in sorted chunks (as
/// `ChunkedArray` keeps rows): finding, inserting and removing a key are binary searches plus a
/// move of at most one chunk.
///
/// An entry keeps its row's key and its sort value's 8-byte prefix (`SortValue.prefix(of:head:)`,
/// texts read after the `head` all the section's texts began with when it was built): 24 bytes a
/// row. The rest of the row's view key is read from the list (`ViewKeySource`) only when two
/// prefixes tie: the order key alone when the prefix is exact (no value, a number, the head),
/// else the whole key.
struct ViewSectionIndex: Sendable {
    struct Entry: Sendable, Equatable {
        var prefix: UInt64
        var rowKey: String

        static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.prefix == rhs.prefix && utf8Equal(lhs.rowKey, rhs.rowKey) }
    }

    /// A view key being looked for, with its prefix.
    struct Probe {
        var key: ViewKey
        var prefix: UInt64

        init(_ key: ViewKey, head: [UInt8]) {
            self.key = key
            prefix = key.sortValue.prefix(head: head)
        }
    }

    /// The most entries in a chunk; a fuller one splits in two.
    let maxChunk: Int
    let descending: Bool
    /// What the section's texts began with when the index was built (see `Entry`).
    let head: [UInt8]
    private(set) var chunks: [[Entry]] = []
    /// Each chunk's entry count, side by side: a rank sums these, not the chunks' headers (one
    /// cache miss each, thousands of chunks at a million rows).
    private var chunkCounts: [Int] = []
    private(set) var count = 0

    init(sortedEntries entries: [Entry], head: [UInt8], descending: Bool, maxChunk: Int) {
        self.descending = descending
        self.head = head
        self.maxChunk = max(2, maxChunk)
        var start = 0
        while start < entries.count {
            let end = min(entries.count, start + maxChunk / 2)
            chunks.append(Array(entries[start..<end]))
            chunkCounts.append(end - start)
            start = end
        }
        count = entries.count
    }

    /// All entries in view order.
    var entries: [Entry] { chunks.flatMap { $0 } }

    /// How prefixes `a` and `b` order: true when `a` comes first, false when `b` does, nil
    /// when they tie. No value (0) goes last either way.
    @inline(__always)
    func prefixPrecedes(_ a: UInt64, _ b: UInt64) -> Bool? {
        if a == b { return nil }
        if a == 0 || b == 0 { return b == 0 }
        return descending ? a > b : a < b
    }

    /// Whether `entry` comes before `probe`, its key read from `source` when prefixes tie.
    @inline(__always)
    private func precedes(_ entry: Entry, _ probe: Probe, _ source: ViewKeySource) -> Bool {
        if let order = prefixPrecedes(entry.prefix, probe.prefix) { return order }
        if SortValue.prefixIsExact(entry.prefix) { return source.orderKey(ofRow: entry.rowKey) < probe.key.orderKey }
        return source.key(ofRow: entry.rowKey).precedes(probe.key, descending: descending)
    }

    /// The chunk that holds, or would hold, `probe`: the first whose last entry is not before it.
    private func chunkIndex(for probe: Probe, _ source: ViewKeySource) -> Int {
        let low = lowerBound(chunks.count) { !precedes(chunks[$0].last!, probe, source) }
        return min(low, max(0, chunks.count - 1))
    }

    /// The first index in `chunk` whose key is not before `probe`.
    private func index(in chunk: [Entry], for probe: Probe, _ source: ViewKeySource) -> Int {
        lowerBound(chunk.count) { !precedes(chunk[$0], probe, source) }
    }

    /// Inserts the row `rowKey` at view key `key`; the other entries' keys are read from `source`.
    mutating func insert(rowKey: String, at key: ViewKey, _ source: ViewKeySource) {
        let probe = Probe(key, head: head)
        let entry = Entry(prefix: probe.prefix, rowKey: rowKey)
        count += 1
        guard !chunks.isEmpty else {
            chunks = [[entry]]
            chunkCounts = [1]
            return
        }
        let chunk = chunkIndex(for: probe, source)
        let index = index(in: chunks[chunk], for: probe, source)
        chunks[chunk].insert(entry, at: index)
        chunkCounts[chunk] += 1
        if chunks[chunk].count > maxChunk {
            let half = chunks[chunk].count / 2
            let upper = Array(chunks[chunk][half...])
            chunks[chunk].removeSubrange(half...)
            chunks.insert(upper, at: chunk + 1)
            chunkCounts[chunk] = half
            chunkCounts.insert(upper.count, at: chunk + 1)
        }
    }

    /// Removes the row `rowKey`, at view key `key` in `source`; false when it is not there.
    @discardableResult
    mutating func remove(rowKey: String, at key: ViewKey, _ source: ViewKeySource) -> Bool {
        guard !chunks.isEmpty else { return false }
        let probe = Probe(key, head: head)
        let chunk = chunkIndex(for: probe, source)
        let index = index(in: chunks[chunk], for: probe, source)
        guard index < chunks[chunk].count, utf8Equal(chunks[chunk][index].rowKey, rowKey) else { return false }
        chunks[chunk].remove(at: index)
        chunkCounts[chunk] -= 1
        if chunks[chunk].isEmpty {
            chunks.remove(at: chunk)
            chunkCounts.remove(at: chunk)
        }
        count -= 1
        return true
    }

    /// The number of entries before `key` (its index when present).
    func rank(of key: ViewKey, _ source: ViewKeySource) -> Int {
        guard !chunks.isEmpty else { return 0 }
        let probe = Probe(key, head: head)
        let chunk = chunkIndex(for: probe, source)
        return chunkCounts[..<chunk].reduce(0, +) + index(in: chunks[chunk], for: probe, source)
    }
}
