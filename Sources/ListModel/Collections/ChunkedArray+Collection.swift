// Reading a `ChunkedArray`: positional access (a search over the groups, then over one group's
// chunks), iteration group by group and chunk by chunk, and pointers to elements in place.

extension ChunkedArray: RandomAccessCollection, MutableCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { groupEnds.last ?? 0 }
    @inlinable public var count: Int { groupEnds.last ?? 0 }
    @inlinable public var isEmpty: Bool { groupEnds.isEmpty }
    @inlinable public var indices: Range<Int> { 0..<count }
    @inlinable public func index(after i: Int) -> Int { i + 1 }
    @inlinable public func index(before i: Int) -> Int { i - 1 }

    @inlinable
    public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "index out of range")
            let (group, chunk, offset) = locate(position)
            return groups[group].chunks[chunk].elements[offset]
        }
        set {
            precondition(position >= 0 && position < count, "index out of range")
            let (group, chunk, offset) = locate(position)
            makeUnique(group: group, chunk: chunk)
            groups[group].chunks[chunk].elements[offset] = newValue
        }
    }

    @inlinable
    public func makeIterator() -> Iterator { Iterator(groups: groups) }

    /// Walks the groups and their chunks in order, element by element.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let groups: [Group]
        @usableFromInline var group = 0
        @usableFromInline var chunks: [Chunk] = []
        @usableFromInline var chunk = 0
        @usableFromInline var current: [Element] = []
        @usableFromInline var offset = 0

        @inlinable
        init(groups: [Group]) { self.groups = groups }

        @inlinable
        public mutating func next() -> Element? {
            while offset == current.count {
                while chunk == chunks.count {
                    guard group < groups.count else { return nil }
                    chunks = groups[group].chunks
                    group += 1
                    chunk = 0
                }
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
    /// Element by element; groups and chunks both arrays share (at the same place) are skipped.
    @inlinable
    public static func == (lhs: ChunkedArray, rhs: ChunkedArray) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard lhs.groupEnds == rhs.groupEnds else { return lhs.elementsEqual(rhs) }
        for (left, right) in zip(lhs.groups, rhs.groups) where left !== right {
            if left.ends == right.ends {
                for (leftChunk, rightChunk) in zip(left.chunks, right.chunks) where leftChunk !== rightChunk {
                    guard leftChunk.elements == rightChunk.elements else { return false }
                }
            } else {
                guard left.chunks.lazy.flatMap(\.elements).elementsEqual(right.chunks.lazy.flatMap(\.elements)) else {
                    return false
                }
            }
        }
        return true
    }
}

extension ChunkedArray: CustomStringConvertible {
    public var description: String { Array(self).description }
}

/// Groups and chunks are changed only while uniquely referenced, as an `Array`'s buffer is.
extension ChunkedArray: @unchecked Sendable where Element: Sendable {}

extension ChunkedArray {
    /// Calls `body` with a pointer to the element at `index` (`0..<count`), valid only
    /// during the call: reads an element in place, without copying it.
    @inlinable
    public func withUnsafeElement<R>(at index: Int, _ body: (UnsafePointer<Element>) throws -> R) rethrows -> R {
        precondition(index >= 0 && index < count, "index out of range")
        let (group, chunk, offset) = locate(index)
        return try groups[group].chunks[chunk].elements.withUnsafeBufferPointer { try body($0.baseAddress! + offset) }
    }

    /// Calls `body` with a pointer to each element in `range`, in order, each valid only during
    /// its call: a walk chunk by chunk that copies no element (no retain and release per element).
    @inlinable
    public func forEachUnsafeElement(in range: Range<Int>, _ body: (UnsafePointer<Element>) throws -> Void) rethrows {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range out of bounds")
        guard !range.isEmpty else { return }
        var (group, chunk, offset) = locate(range.lowerBound)
        var remaining = range.count
        while remaining > 0 {
            let chunks = groups[group].chunks
            while remaining > 0, chunk < chunks.count {
                let taken = try chunks[chunk].elements.withUnsafeBufferPointer { buffer in
                    let taken = Swift.min(buffer.count - offset, remaining)
                    for index in offset..<offset + taken { try body(buffer.baseAddress! + index) }
                    return taken
                }
                remaining -= taken
                chunk += 1
                offset = 0
            }
            group += 1
            chunk = 0
        }
    }
}
