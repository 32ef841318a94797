// Building a `ChunkedArray` from pieces of others without copying them: the groups a piece
// covers whole are shared, then the chunks it covers whole; only the partial chunks at its ends
// are copied. A patched section made of untouched runs of an old section's rows costs its
// touched rows and a group's index at each cut, not its length.

extension ChunkedArray {
    /// Appends `other[range]`, sharing the groups and chunks of `other` that `range` covers
    /// whole: O(the groups in `range` + 2 * (`chunkSize` + `groupSize`)). Chunks under half
    /// `chunkSize` and groups under half `groupSize` are filled up by copying rather than
    /// shared, so that the array does not fray into many small chunks or groups.
    @inlinable
    public mutating func append(contentsOf other: ChunkedArray, range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= other.count, "range out of bounds")
        guard !range.isEmpty else { return }
        var (group, chunk, offset) = other.locate(range.lowerBound)
        var position = range.lowerBound
        while position < range.upperBound {
            let source = other.groups[group]
            let groupStart = other.start(ofGroup: group)
            if offset == 0, !lastChunkIsSmall {
                if chunk == 0, !lastGroupIsSmall, other.groupEnds[group] <= range.upperBound {
                    // Share the groups the range covers whole, all at once.
                    var end = group
                    while end < other.groups.count, other.groupEnds[end] <= range.upperBound { end += 1 }
                    let shift = count - groupStart
                    groups.append(contentsOf: other.groups[group..<end])
                    groupEnds.append(contentsOf: other.groupEnds[group..<end].lazy.map { $0 + shift })
                    position = other.groupEnds[end - 1]
                    group = end
                    continue
                }
                // Share the chunks of this group the range covers whole.
                var end = chunk
                while end < source.chunks.count, groupStart + source.ends[end] <= range.upperBound { end += 1 }
                if end > chunk {
                    appendChunks(of: source, chunk..<end)
                    position = groupStart + source.ends[end - 1]
                    chunk = end
                    if chunk == source.chunks.count { (group, chunk) = (group + 1, 0) }
                    continue
                }
            }
            let chunkStart = groupStart + source.start(ofChunk: chunk)
            let taken = Swift.min(groupStart + source.ends[chunk] - chunkStart - offset, range.upperBound - position)
            appendCopied(source.chunks[chunk].elements[offset..<offset + taken])
            position += taken
            chunk += 1
            offset = 0
            if chunk == source.chunks.count { (group, chunk) = (group + 1, 0) }
        }
    }

    /// Whether the last chunk holds less than half `chunkSize` (false when there is none).
    @inlinable
    var lastChunkIsSmall: Bool {
        guard let last = groups.last?.chunks.last else { return false }
        return last.elements.count < chunkSize / 2
    }

    /// Whether the last group holds less than half `groupSize` chunks (false when there is none).
    @inlinable
    var lastGroupIsSmall: Bool {
        guard let last = groups.last else { return false }
        return last.chunks.count < Self.groupSize / 2
    }

    /// Appends chunks `range` of `source`, shared: into the last group when they fit together
    /// (at most `2 * groupSize` chunks) or the last is small (then split in two if over), else
    /// as a group of their own.
    @inlinable
    mutating func appendChunks(of source: Group, _ range: Range<Int>) {
        let sourceStart = source.start(ofChunk: range.lowerBound)
        let added = source.ends[range.upperBound - 1] - sourceStart
        if let group = groups.indices.last,
            groups[group].chunks.count + range.count <= 2 * Self.groupSize || groups[group].chunks.count < Self.groupSize / 2
        {
            makeUnique(group: group)
            let owner = groups[group]
            let shift = owner.count - sourceStart
            owner.chunks.append(contentsOf: source.chunks[range])
            owner.ends.append(contentsOf: source.ends[range].lazy.map { $0 + shift })
            groupEnds[group] += added
            if owner.chunks.count > 2 * Self.groupSize { replaceGroups(group...group, withChunks: owner.chunks) }
        } else {
            let end = count + added
            groups.append(Group(chunks: Array(source.chunks[range]), ends: source.ends[range].map { $0 - sourceStart }))
            groupEnds.append(end)
        }
    }

    /// Appends a piece of one chunk (at most `2 * chunkSize` elements) by copying: into the
    /// last chunk when they fit together and either is small or the last is not shared, else
    /// as a chunk of its own.
    @inlinable
    mutating func appendCopied(_ piece: ArraySlice<Element>) {
        if let group = groups.indices.last {
            let chunk = groups[group].chunks.count - 1
            let size = groups[group].chunks[chunk].elements.count
            if size + piece.count <= 2 * chunkSize,
                size < chunkSize / 2 || piece.count < chunkSize / 2
                    || (isKnownUniquelyReferenced(&groups[group]) && isKnownUniquelyReferenced(&groups[group].chunks[chunk]))
            {
                makeUnique(group: group, chunk: chunk)
                groups[group].chunks[chunk].elements.append(contentsOf: piece)
                shiftEnds(group: group, chunk: chunk, by: piece.count)
                return
            }
        }
        appendChunk(Chunk(Array(piece)))
    }

    /// Whether the chunks and groups are well formed: none empty, no chunk over `2 * chunkSize`
    /// elements, no group over `2 * groupSize` chunks, and the counts their running totals (for
    /// tests).
    var hasValidChunks: Bool {
        guard groups.count == groupEnds.count else { return false }
        var total = 0
        for (group, groupEnd) in zip(groups, groupEnds) {
            guard group.chunks.count == group.ends.count, !group.chunks.isEmpty,
                group.chunks.count <= 2 * Self.groupSize
            else { return false }
            var inGroup = 0
            for (chunk, end) in zip(group.chunks, group.ends) {
                let size = chunk.elements.count
                guard size > 0, size <= 2 * chunkSize else { return false }
                inGroup += size
                guard end == inGroup else { return false }
            }
            total += inGroup
            guard groupEnd == total else { return false }
        }
        return true
    }

    /// The number of groups (for tests).
    var groupCount: Int { groups.count }

    /// The number of chunks this array shares with `other` (for tests).
    func sharedChunkCount(with other: ChunkedArray) -> Int {
        let mine = Set(chunks.map(ObjectIdentifier.init))
        return other.chunks.filter { mine.contains(ObjectIdentifier($0)) }.count
    }

    /// The number of groups this array shares with `other` (for tests).
    func sharedGroupCount(with other: ChunkedArray) -> Int {
        let mine = Set(groups.map(ObjectIdentifier.init))
        return other.groups.filter { mine.contains(ObjectIdentifier($0)) }.count
    }
}
