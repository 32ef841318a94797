/// An array cut into chunks of a few hundred elements, each behind its own reference: a copy
/// shares every chunk, and a change copies only the chunks it touches and the chunk index (one
/// reference and one count per chunk), never the whole array.
///
/// This is what lets versions of a list share all but what a write touched: replacing,
/// inserting or removing a few rows of a million costs about `chunkSize` elements and
/// `count / chunkSize` index entries. Positional access is a binary search over the chunks'
/// cumulative counts (O(log(count / chunkSize))); iteration walks the chunks directly.
///
/// Chunks hold 1 to `2 * chunkSize` elements; chunks cut anew hold about `chunkSize`.
public struct ChunkedArray<Element> {
    /// One chunk: changed in place only while uniquely referenced (copy on write per chunk).
    @usableFromInline
    final class Chunk {
        @exclusivity(unchecked) @usableFromInline var elements: [Element]

        @inlinable
        init(_ elements: [Element]) { self.elements = elements }
    }

    @usableFromInline var chunks: [Chunk]
    /// `ends[c]`: the number of elements in chunks `0...c`.
    @usableFromInline var ends: [Int]
    /// The size chunks are cut to.
    @usableFromInline let chunkSize: Int

    /// The chunk size lists use: a few tens of kilobytes of rows or order keys per chunk.
    public static var defaultChunkSize: Int { 512 }

    /// An empty array whose chunks are cut to `chunkSize` (at least 2) elements.
    @inlinable
    public init(chunkSize: Int = Self.defaultChunkSize) {
        precondition(chunkSize >= 2, "chunk size must be at least 2")
        chunks = []
        ends = []
        self.chunkSize = chunkSize
    }

    /// The elements of `elements`, in chunks of `chunkSize`.
    @inlinable
    public init(_ elements: some Sequence<Element>, chunkSize: Int = Self.defaultChunkSize) {
        self.init(chunkSize: chunkSize)
        let all = Array(elements)
        var start = 0
        while start < all.count {
            let end = Swift.min(start + chunkSize, all.count)
            chunks.append(Chunk(Array(all[start..<end])))
            ends.append(end)
            start = end
        }
    }

    /// The chunk holding `index` (`0..<count`) and the offset in it.
    @inlinable
    func locate(_ index: Int) -> (chunk: Int, offset: Int) {
        var low = 0
        var high = ends.count - 1
        while low < high {
            let mid = (low &+ high) >> 1
            if ends[mid] <= index { low = mid &+ 1 } else { high = mid }
        }
        return (low, low == 0 ? index : index &- ends[low &- 1])
    }

    /// The number of elements before chunk `chunk`.
    @inlinable
    func start(ofChunk chunk: Int) -> Int { chunk == 0 ? 0 : ends[chunk - 1] }

    /// Makes chunk `chunk` uniquely referenced by this array, copying it if shared.
    @inlinable
    mutating func makeUnique(_ chunk: Int) {
        if !isKnownUniquelyReferenced(&chunks[chunk]) { chunks[chunk] = Chunk(chunks[chunk].elements) }
    }
}

extension ChunkedArray: RandomAccessCollection, MutableCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { ends.last ?? 0 }
    @inlinable public var count: Int { ends.last ?? 0 }
    @inlinable public var isEmpty: Bool { ends.isEmpty }
    @inlinable public var indices: Range<Int> { 0..<count }
    @inlinable public func index(after i: Int) -> Int { i + 1 }
    @inlinable public func index(before i: Int) -> Int { i - 1 }

    @inlinable
    public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "index out of range")
            let (chunk, offset) = locate(position)
            return chunks[chunk].elements[offset]
        }
        set {
            precondition(position >= 0 && position < count, "index out of range")
            let (chunk, offset) = locate(position)
            makeUnique(chunk)
            chunks[chunk].elements[offset] = newValue
        }
    }

    @inlinable
    public func makeIterator() -> Iterator { Iterator(chunks: chunks) }

    /// Walks the chunks in order, element by element.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let chunks: [Chunk]
        @usableFromInline var chunk = 0
        @usableFromInline var current: [Element] = []
        @usableFromInline var offset = 0

        @inlinable
        init(chunks: [Chunk]) { self.chunks = chunks }

        @inlinable
        public mutating func next() -> Element? {
            while offset == current.count {
                guard chunk < chunks.count else { return nil }
                current = chunks[chunk].elements
                chunk += 1
                offset = 0
            }
            defer { offset += 1 }
            return current[offset]
        }
    }
}

extension ChunkedArray: ExpressibleByArrayLiteral {
    @inlinable
    public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension ChunkedArray: Equatable where Element: Equatable {
    /// Element by element; chunks both arrays share (at the same place) are skipped.
    @inlinable
    public static func == (lhs: ChunkedArray, rhs: ChunkedArray) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.ends == rhs.ends {
            for (left, right) in zip(lhs.chunks, rhs.chunks) where left !== right {
                guard left.elements == right.elements else { return false }
            }
            return true
        }
        return lhs.elementsEqual(rhs)
    }
}

extension ChunkedArray: CustomStringConvertible {
    public var description: String { Array(self).description }
}

/// Chunks are changed only while uniquely referenced, as an `Array`'s buffer is.
extension ChunkedArray: @unchecked Sendable where Element: Sendable {}

extension ChunkedArray {
    /// Calls `body` with a pointer to the element at `index` (`0..<count`), valid only
    /// during the call: reads an element in place, without copying it.
    @inlinable
    public func withUnsafeElement<R>(at index: Int, _ body: (UnsafePointer<Element>) throws -> R) rethrows -> R {
        precondition(index >= 0 && index < count, "index out of range")
        let (chunk, offset) = locate(index)
        return try chunks[chunk].elements.withUnsafeBufferPointer { try body($0.baseAddress! + offset) }
    }

    /// Calls `body` with a pointer to each element in `range`, in order, each valid only during
    /// its call: a walk chunk by chunk that copies no element (no retain and release per element).
    @inlinable
    public func forEachUnsafeElement(in range: Range<Int>, _ body: (UnsafePointer<Element>) throws -> Void) rethrows {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range out of bounds")
        guard !range.isEmpty else { return }
        var (chunk, offset) = locate(range.lowerBound)
        var remaining = range.count
        while remaining > 0 {
            let taken = try chunks[chunk].elements.withUnsafeBufferPointer { buffer in
                let taken = Swift.min(buffer.count - offset, remaining)
                for index in offset..<offset + taken { try body(buffer.baseAddress! + index) }
                return taken
            }
            remaining -= taken
            chunk += 1
            offset = 0
        }
    }
}
