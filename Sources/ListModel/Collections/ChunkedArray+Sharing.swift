// Building a `ChunkedArray` from pieces of others without copying them: the chunks a piece
// covers whole are shared, only the partial chunks at its ends are copied. A patched section
// made of untouched runs of an old section's rows costs its touched rows, not its length.

extension ChunkedArray {
    /// Appends `other[range]`, sharing the chunks of `other` that `range` covers whole: O(the
    /// chunks in `range` + 2 * `chunkSize`). Chunks under half `chunkSize` are filled up by
    /// copying rather than shared, so that the array does not fray into many small chunks.
    @inlinable
    public mutating func append(contentsOf other: ChunkedArray, range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= other.count, "range out of bounds")
        guard !range.isEmpty else { return }
        var (chunk, offset) = other.locate(range.lowerBound)
        var position = range.lowerBound
        while position < range.upperBound {
            let chunkStart = other.start(ofChunk: chunk)
            if offset == 0, !lastChunkIsSmall {
                // Share the chunks the range covers whole, all at once.
                var end = chunk
                while end < other.ends.count, other.ends[end] <= range.upperBound { end += 1 }
                if end > chunk {
                    let shift = count - chunkStart
                    chunks.append(contentsOf: other.chunks[chunk..<end])
                    ends.append(contentsOf: other.ends[chunk..<end].lazy.map { $0 + shift })
                    position = other.ends[end - 1]
                    chunk = end
                    continue
                }
            }
            let taken = Swift.min(other.ends[chunk] - chunkStart - offset, range.upperBound - position)
            appendCopied(other.chunks[chunk].elements[offset..<offset + taken])
            position += taken
            chunk += 1
            offset = 0
        }
    }

    /// Whether the last chunk holds less than half `chunkSize` (false when there is none).
    @inlinable
    var lastChunkIsSmall: Bool {
        guard let last = ends.indices.last else { return false }
        return ends[last] - start(ofChunk: last) < chunkSize / 2
    }

    /// Appends a piece of one chunk (at most `2 * chunkSize` elements) by copying: into the
    /// last chunk when they fit together and either is small or the last is not shared, else
    /// as a chunk of its own.
    @inlinable
    mutating func appendCopied(_ piece: ArraySlice<Element>) {
        if let last = chunks.indices.last {
            let size = chunks[last].elements.count
            if size + piece.count <= 2 * chunkSize,
               size < chunkSize / 2 || piece.count < chunkSize / 2 || isKnownUniquelyReferenced(&chunks[last]) {
                makeUnique(last)
                chunks[last].elements.append(contentsOf: piece)
                ends[last] += piece.count
                return
            }
        }
        chunks.append(Chunk(Array(piece)))
        ends.append(count + piece.count)
    }

    /// Whether the chunks are well formed: none empty, none over `2 * chunkSize`, and `ends`
    /// their running total (for tests).
    var hasValidChunks: Bool {
        guard chunks.count == ends.count else { return false }
        var total = 0
        for (chunk, end) in zip(chunks, ends) {
            let size = chunk.elements.count
            guard size > 0, size <= 2 * chunkSize else { return false }
            total += size
            guard end == total else { return false }
        }
        return true
    }

    /// The number of chunks this array shares with `other` (for tests).
    func sharedChunkCount(with other: ChunkedArray) -> Int {
        let mine = Set(chunks.map(ObjectIdentifier.init))
        return other.chunks.filter { mine.contains(ObjectIdentifier($0)) }.count
    }
}
