// Inserting, removing and replacing elements of a `ChunkedArray`: a change inside one chunk
// copies that chunk and its group's index (when shared) and the groups' counts; a change
// across chunks re-cuts only the chunks it overlaps (the ones wholly inside the range are
// dropped without being read) and regroups the groups it spans.

extension ChunkedArray: RangeReplaceableCollection {
    @inlinable
    public init() { self.init(chunkSize: Self.defaultChunkSize) }

    /// Replaces `subrange` by `newElements`: O(`chunkSize` + `newElements.count` + `groupSize`
    /// + group count), plus the chunks and groups the range spans.
    @inlinable
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Element {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= count, "range out of bounds")
        let added = newElements.count
        if subrange.isEmpty, added == 0 { return }
        if groups.isEmpty {
            self = ChunkedArray(newElements, chunkSize: chunkSize)
            return
        }
        // The chunks the change overlaps: `first` holds the range's start (an insertion at the
        // end goes to the last chunk), `last` its last element.
        let first: (group: Int, chunk: Int, offset: Int)
        if subrange.lowerBound == count {
            let group = groups.count - 1
            let chunk = groups[group].chunks.count - 1
            first = (group, chunk, groups[group].chunks[chunk].elements.count)
        } else {
            first = locate(subrange.lowerBound)
        }
        let last: (group: Int, chunk: Int, end: Int)
        if subrange.isEmpty {
            last = (first.group, first.chunk, first.offset)
        } else {
            let found = locate(subrange.upperBound - 1)
            last = (found.group, found.chunk, found.offset + 1)
        }
        if first.group == last.group, first.chunk == last.chunk {
            let size = groups[first.group].chunks[first.chunk].elements.count - subrange.count + added
            let onlyChunk = groups.count == 1 && groups[0].chunks.count == 1
            if size > 0, size <= 2 * chunkSize, size >= chunkSize / 4 || onlyChunk {
                makeUnique(group: first.group, chunk: first.chunk)
                groups[first.group].chunks[first.chunk].elements.replaceSubrange(first.offset..<last.end, with: newElements)
                shiftEnds(group: first.group, chunk: first.chunk, by: added - subrange.count)
                return
            }
        }
        recut(first: first, last: last, with: newElements)
    }

    /// Replaces chunks `first...last` by chunks cut from their elements before `first.offset`,
    /// `newElements`, and theirs from `last.end`; a result under half a chunk takes in a
    /// neighbour. The groups spanned are cut anew around the new chunks.
    @inlinable
    mutating func recut<C: Collection>(
        first: (group: Int, chunk: Int, offset: Int),
        last: (group: Int, chunk: Int, end: Int), with newElements: C
    )
    where C.Element == Element {
        var lowGroup = first.group
        var highGroup = last.group
        // The chunks of the groups spanned, as one array; `low...high` are the ones cut.
        var window: [Chunk] = []
        for group in lowGroup...highGroup { window.append(contentsOf: groups[group].chunks) }
        var low = first.chunk
        var high = window.count - groups[highGroup].chunks.count + last.chunk
        var merged: [Element] = []
        let tail = window[high].elements[last.end...]
        merged.reserveCapacity(first.offset + newElements.count + tail.count)
        merged.append(contentsOf: window[low].elements[..<first.offset])
        merged.append(contentsOf: newElements)
        merged.append(contentsOf: tail)
        if merged.count < chunkSize / 2 {
            if high + 1 == window.count, highGroup + 1 < groups.count {
                highGroup += 1
                window.append(contentsOf: groups[highGroup].chunks)
            }
            if high + 1 < window.count {
                high += 1
                merged.append(contentsOf: window[high].elements)
            } else {
                if low == 0, lowGroup > 0 {
                    lowGroup -= 1
                    let before = groups[lowGroup].chunks
                    window.insert(contentsOf: before, at: 0)
                    low += before.count
                    high += before.count
                }
                if low > 0 {
                    low -= 1
                    merged.insert(contentsOf: window[low].elements, at: 0)
                }
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
        window.replaceSubrange(low...high, with: pieces)
        // Groups under half `groupSize` take in a neighbour, so that the groups do not fray.
        if window.count < Self.groupSize / 2 {
            if highGroup + 1 < groups.count {
                highGroup += 1
                window.append(contentsOf: groups[highGroup].chunks)
            } else if lowGroup > 0 {
                lowGroup -= 1
                window.insert(contentsOf: groups[lowGroup].chunks, at: 0)
            }
        }
        replaceGroups(lowGroup...highGroup, withChunks: window)
    }

    /// Replaces groups `range` by groups of about `groupSize` cut from `chunks`, and fixes the
    /// groups' counts.
    @inlinable
    mutating func replaceGroups(_ range: ClosedRange<Int>, withChunks chunks: [Chunk]) {
        var newGroups: [Group] = []
        if !chunks.isEmpty {
            let groupCount = Swift.max(1, (chunks.count + Self.groupSize / 2) / Self.groupSize)
            newGroups.reserveCapacity(groupCount)
            for group in 0..<groupCount {
                newGroups.append(Group(chunks[chunks.count * group / groupCount..<chunks.count * (group + 1) / groupCount]))
            }
        }
        let before = start(ofGroup: range.lowerBound)
        var end = before
        let newEnds = newGroups.map { group in
            end += group.count
            return end
        }
        let delta = end - groupEnds[range.upperBound]
        groupEnds.replaceSubrange(range, with: newEnds)
        groups.replaceSubrange(range, with: newGroups)
        if delta != 0 {
            for group in (range.lowerBound + newGroups.count)..<groupEnds.count { groupEnds[group] += delta }
        }
    }

    /// Appends one element: into the last chunk while it holds fewer than `chunkSize` and
    /// neither it nor its group is shared, else in a new chunk.
    @inlinable
    public mutating func append(_ element: Element) {
        if let group = groups.indices.last {
            let chunk = groups[group].chunks.count - 1
            if groups[group].chunks[chunk].elements.count < chunkSize, isKnownUniquelyReferenced(&groups[group]),
                isKnownUniquelyReferenced(&groups[group].chunks[chunk])
            {
                let owner = groups[group]
                owner.chunks[chunk].elements.append(element)
                owner.ends[chunk] += 1
                groupEnds[group] += 1
                return
            }
        }
        appendChunk(Chunk([element]))
    }

    /// Appends `chunk` (not empty): into the last group while it holds fewer than `groupSize`
    /// chunks, else as a group of its own.
    @inlinable
    mutating func appendChunk(_ chunk: Chunk) {
        let size = chunk.elements.count
        if let group = groups.indices.last, groups[group].chunks.count < Self.groupSize {
            makeUnique(group: group)
            let owner = groups[group]
            let end = owner.count + size
            owner.chunks.append(chunk)
            owner.ends.append(end)
            groupEnds[group] += size
        } else {
            let end = count + size
            groups.append(Group(chunks: [chunk], ends: [size]))
            groupEnds.append(end)
        }
    }

    @inlinable
    public mutating func reserveCapacity(_ n: Int) {}
}
