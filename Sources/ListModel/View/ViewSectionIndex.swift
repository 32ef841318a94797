/// One section's rows of a maintained view, ordered by view key in sorted chunks (as
/// `ChunkedArray` keeps rows): finding, inserting and removing a key are binary searches plus a
/// move of at most one chunk.
struct ViewSectionIndex: Sendable {
    struct Entry: Sendable, Equatable {
        var key: ViewKey
        var rowKey: String
    }

    /// The most entries in a chunk; a fuller one splits in two.
    let maxChunk: Int
    let descending: Bool
    private(set) var chunks: [[Entry]] = []
    private(set) var count = 0

    init(sortedEntries entries: [Entry], descending: Bool, maxChunk: Int) {
        self.descending = descending
        self.maxChunk = max(2, maxChunk)
        var start = 0
        while start < entries.count {
            let end = min(entries.count, start + maxChunk / 2)
            chunks.append(Array(entries[start..<end]))
            start = end
        }
        count = entries.count
    }

    /// All entries in view order.
    var entries: [Entry] { chunks.flatMap { $0 } }

    /// Whether `a` comes before `b`.
    @inline(__always)
    private func before(_ a: ViewKey, _ b: ViewKey) -> Bool { a.precedes(b, descending: descending) }

    /// The chunk that holds, or would hold, `key`: the first whose last entry is not before it.
    private func chunkIndex(for key: ViewKey) -> Int {
        let low = lowerBound(chunks.count) { !before(chunks[$0].last!.key, key) }
        return min(low, max(0, chunks.count - 1))
    }

    /// The first index in `chunk` whose key is not before `key`.
    private func index(in chunk: [Entry], for key: ViewKey) -> Int {
        lowerBound(chunk.count) { !before(chunk[$0].key, key) }
    }

    mutating func insert(_ entry: Entry) {
        count += 1
        guard !chunks.isEmpty else {
            chunks = [[entry]]
            return
        }
        let chunk = chunkIndex(for: entry.key)
        let index = index(in: chunks[chunk], for: entry.key)
        chunks[chunk].insert(entry, at: index)
        if chunks[chunk].count > maxChunk {
            let half = chunks[chunk].count / 2
            let upper = Array(chunks[chunk][half...])
            chunks[chunk].removeSubrange(half...)
            chunks.insert(upper, at: chunk + 1)
        }
    }

    /// Removes the entry with `key`; false when there is none.
    @discardableResult
    mutating func remove(_ key: ViewKey) -> Bool {
        guard !chunks.isEmpty else { return false }
        let chunk = chunkIndex(for: key)
        let index = index(in: chunks[chunk], for: key)
        guard index < chunks[chunk].count, chunks[chunk][index].key == key else { return false }
        chunks[chunk].remove(at: index)
        if chunks[chunk].isEmpty { chunks.remove(at: chunk) }
        count -= 1
        return true
    }

    /// The number of entries before `key` (its index when present).
    func rank(of key: ViewKey) -> Int {
        guard !chunks.isEmpty else { return 0 }
        let chunk = chunkIndex(for: key)
        return chunks[..<chunk].reduce(0) { $0 + $1.count } + index(in: chunks[chunk], for: key)
    }
}

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

    /// The number of entries that come before `end` or are at it (a window's share of the section).
    func count(through end: ViewCursor) -> Int {
        var total = 0
        for chunk in chunks {
            // Entries are in view order: the ones in the window come first.
            if !end.isBefore(chunk.last!.key, descending: descending) {
                total += chunk.count
                continue
            }
            return total + lowerBound(chunk.count) { end.isBefore(chunk[$0].key, descending: descending) }
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
