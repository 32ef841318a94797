// Inserting, removing and replacing elements of a `ChunkedArray`: a change inside one chunk
// copies that chunk (when shared) and the index; a change across chunks re-cuts only the
// chunks it overlaps (the ones wholly inside the range are dropped without being read).

extension ChunkedArray: RangeReplaceableCollection {
    @inlinable
    public init() { self.init(chunkSize: Self.defaultChunkSize) }

    /// Replaces `subrange` by `newElements`: O(`chunkSize` + `newElements.count` + chunk count).
    @inlinable
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
        where C.Element == Element {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= count, "range out of bounds")
        let added = newElements.count
        if subrange.isEmpty, added == 0 { return }
        if chunks.isEmpty {
            self = ChunkedArray(newElements, chunkSize: chunkSize)
            return
        }
        // The chunks the change overlaps: `first` holds the range's start (an insertion at a
        // chunk's end goes to that chunk), `last` its last element.
        let (first, firstOffset) = subrange.lowerBound == count
            ? (chunks.count - 1, chunks[chunks.count - 1].elements.count)
            : locate(subrange.lowerBound)
        let (last, lastEnd) = subrange.isEmpty
            ? (first, firstOffset)
            : { let (chunk, offset) = locate(subrange.upperBound - 1); return (chunk, offset + 1) }()
        if first == last {
            let size = chunks[first].elements.count - subrange.count + added
            if size > 0, size <= 2 * chunkSize, size >= chunkSize / 4 || chunks.count == 1 {
                makeUnique(first)
                chunks[first].elements.replaceSubrange(firstOffset..<lastEnd, with: newElements)
                let delta = added - subrange.count
                if delta != 0 {
                    for chunk in first..<ends.count { ends[chunk] += delta }
                }
                return
            }
        }
        recut(first: first, firstOffset: firstOffset, last: last, lastEnd: lastEnd, with: newElements)
    }

    /// Replaces chunks `first...last` by chunks cut from their elements before `firstOffset`,
    /// `newElements`, and theirs from `lastEnd`; a result under half a chunk takes in a neighbour.
    @inlinable
    mutating func recut<C: Collection>(first: Int, firstOffset: Int, last: Int, lastEnd: Int, with newElements: C)
        where C.Element == Element {
        var low = first
        var high = last
        var merged: [Element] = []
        let tail = chunks[last].elements[lastEnd...]
        merged.reserveCapacity(firstOffset + newElements.count + tail.count)
        merged.append(contentsOf: chunks[first].elements[..<firstOffset])
        merged.append(contentsOf: newElements)
        merged.append(contentsOf: tail)
        if merged.count < chunkSize / 2 {
            if high + 1 < chunks.count {
                high += 1
                merged.append(contentsOf: chunks[high].elements)
            } else if low > 0 {
                low -= 1
                merged.insert(contentsOf: chunks[low].elements, at: 0)
            }
        }
        var pieces: [Chunk] = []
        if !merged.isEmpty {
            // Near-equal pieces of about `chunkSize`.
            let pieceCount = Swift.max(1, (merged.count + chunkSize / 2) / chunkSize)
            pieces.reserveCapacity(pieceCount)
            for piece in 0..<pieceCount {
                let start = merged.count * piece / pieceCount
                let end = merged.count * (piece + 1) / pieceCount
                pieces.append(Chunk(Array(merged[start..<end])))
            }
        }
        let delta = merged.count - (ends[high] - start(ofChunk: low))
        var end = start(ofChunk: low)
        ends.replaceSubrange(low...high, with: pieces.map { piece in
            end += piece.elements.count
            return end
        })
        chunks.replaceSubrange(low...high, with: pieces)
        if delta != 0 {
            for chunk in (low + pieces.count)..<ends.count { ends[chunk] += delta }
        }
    }

    /// Appends one element: into the last chunk while it holds fewer than `chunkSize` and is
    /// not shared, else in a new chunk.
    @inlinable
    public mutating func append(_ element: Element) {
        let last = ends.count - 1
        if last >= 0, ends[last] - start(ofChunk: last) < chunkSize, isKnownUniquelyReferenced(&chunks[last]) {
            chunks[last].elements.append(element)
            ends[last] += 1
        } else {
            chunks.append(Chunk([element]))
            ends.append(count + 1)
        }
    }

    @inlinable
    public mutating func reserveCapacity(_ n: Int) {}
}
