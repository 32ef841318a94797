/// An array cut into chunks of a few hundred elements, each behind its own reference, and the
/// chunks into groups of a few dozen, each behind its own reference too: a copy shares every
/// group, and a change copies only the chunk it touches, that chunk's group (its chunk
/// references and counts) and the list of groups, never the whole array.
///
/// This is what lets versions of a list share all but what a write touched: replacing,
/// inserting or removing a few rows of a million costs about `chunkSize` elements,
/// `groupSize` chunk references and `count / (chunkSize * groupSize)` group references (31
/// for a million order keys, where a flat index of chunks held 1,954). Positional access is
/// a binary search over the groups' cumulative counts, then over the group's chunks';
/// iteration walks the groups and chunks directly.
///
/// Chunks hold 1 to `2 * chunkSize` elements, groups 1 to `2 * groupSize` chunks; chunks and
/// groups cut anew hold about `chunkSize` elements and `groupSize` chunks.
public struct ChunkedArray<Element> {
    /// One chunk: changed in place only while uniquely referenced (copy on write per chunk).
    @usableFromInline
    final class Chunk {
        @exclusivity(unchecked) @usableFromInline var elements: [Element]

        @inlinable
        init(_ elements: [Element]) { self.elements = elements }
    }

    /// A run of chunks with their cumulative counts: changed in place only while uniquely
    /// referenced, so that a change copies one group's index, not every chunk's reference.
    @usableFromInline
    final class Group {
        @exclusivity(unchecked) @usableFromInline var chunks: [Chunk]
        /// `ends[c]`: the number of elements in this group's chunks `0...c`.
        @exclusivity(unchecked) @usableFromInline var ends: [Int]

        @inlinable
        init(chunks: [Chunk], ends: [Int]) {
            self.chunks = chunks
            self.ends = ends
        }

        /// A group of `chunks`, their counts computed.
        @inlinable
        convenience init(_ chunks: some Collection<Chunk>) {
            var total = 0
            self.init(
                chunks: Array(chunks),
                ends: chunks.map { chunk in
                    total += chunk.elements.count
                    return total
                })
        }

        /// The number of elements in this group.
        @inlinable var count: Int { ends.last ?? 0 }

        /// The number of elements before chunk `chunk` of this group.
        @inlinable
        func start(ofChunk chunk: Int) -> Int { chunk == 0 ? 0 : ends[chunk &- 1] }

        /// A group holding the same chunks (shared), for changing them.
        @inlinable
        func copy() -> Group { Group(chunks: chunks, ends: ends) }
    }

    @usableFromInline var groups: [Group]
    /// `groupEnds[g]`: the number of elements in groups `0...g`.
    @usableFromInline var groupEnds: [Int]
    /// The size chunks are cut to.
    @usableFromInline let chunkSize: Int

    /// The chunk size lists use: a few tens of kilobytes of rows or order keys per chunk.
    public static var defaultChunkSize: Int { 512 }

    /// The number of chunks groups are cut to (a group's index: 64 references and counts).
    @inlinable static var groupSize: Int { 64 }

    /// An empty array whose chunks are cut to `chunkSize` (at least 2) elements.
    @inlinable
    public init(chunkSize: Int = Self.defaultChunkSize) {
        precondition(chunkSize >= 2, "chunk size must be at least 2")
        groups = []
        groupEnds = []
        self.chunkSize = chunkSize
    }

    /// The elements of `elements`, in chunks of `chunkSize`, in groups of `groupSize` chunks.
    @inlinable
    public init(_ elements: some Sequence<Element>, chunkSize: Int = Self.defaultChunkSize) {
        self.init(chunkSize: chunkSize)
        let all = Array(elements)
        var chunks: [Chunk] = []
        var start = 0
        while start < all.count {
            let end = Swift.min(start + chunkSize, all.count)
            chunks.append(Chunk(Array(all[start..<end])))
            start = end
        }
        var first = 0
        while first < chunks.count {
            let end = Swift.min(first + Self.groupSize, chunks.count)
            groups.append(Group(chunks[first..<end]))
            groupEnds.append((groupEnds.last ?? 0) + groups[groups.count - 1].count)
            first = end
        }
    }

    /// The group and chunk holding `index` (`0..<count`), and the offset in the chunk.
    @inlinable
    func locate(_ index: Int) -> (group: Int, chunk: Int, offset: Int) {
        let group = Self.search(groupEnds, index)
        let inGroup = group == 0 ? index : index &- groupEnds[group &- 1]
        let ends = groups[group].ends
        let chunk = Self.search(ends, inGroup)
        return (group, chunk, chunk == 0 ? inGroup : inGroup &- ends[chunk &- 1])
    }

    /// The first position in `ends` (cumulative counts) whose count exceeds `index`.
    @inlinable
    static func search(_ ends: [Int], _ index: Int) -> Int {
        var low = 0
        var high = ends.count - 1
        while low < high {
            let mid = (low &+ high) >> 1
            if ends[mid] <= index { low = mid &+ 1 } else { high = mid }
        }
        return low
    }

    /// The number of elements before group `group`.
    @inlinable
    func start(ofGroup group: Int) -> Int { group == 0 ? 0 : groupEnds[group - 1] }

    /// Makes group `group` uniquely referenced by this array, copying its index if shared.
    @inlinable
    mutating func makeUnique(group: Int) {
        if !isKnownUniquelyReferenced(&groups[group]) { groups[group] = groups[group].copy() }
    }

    /// Makes chunk `chunk` of group `group`, and the group, uniquely referenced by this array,
    /// copying them if shared.
    @inlinable
    mutating func makeUnique(group: Int, chunk: Int) {
        makeUnique(group: group)
        let owner = groups[group]
        if !isKnownUniquelyReferenced(&owner.chunks[chunk]) { owner.chunks[chunk] = Chunk(owner.chunks[chunk].elements) }
    }

    /// Adds `delta` to the counts from chunk `chunk` of group `group` on (group made unique).
    @inlinable
    mutating func shiftEnds(group: Int, chunk: Int, by delta: Int) {
        guard delta != 0 else { return }
        let owner = groups[group]
        for index in chunk..<owner.ends.count { owner.ends[index] += delta }
        for index in group..<groupEnds.count { groupEnds[index] += delta }
    }

    /// Every chunk, in order: O(chunk count), for walks that read chunk by chunk.
    var chunks: [Chunk] { groups.flatMap(\.chunks) }
}
