import ListModelTesting
import Testing

@testable import ListModel

@Suite struct ChunkedArrayTests {
    /// Random edits of every kind (set, insert, remove, replace a range, append one, append a
    /// shared piece of another) agree with the same edits to an `Array`, keep the chunks well
    /// formed, and leave copies taken along the way unchanged.
    @Test(arguments: [2, 3, 8, 64])
    func agreesWithAnArray(chunkSize: Int) {
        var random = SplitMix64(seed: UInt64(chunkSize))
        var reference = Array(0..<200)
        var chunked = ChunkedArray(reference, chunkSize: chunkSize)
        var copies: [(ChunkedArray<Int>, [Int])] = []
        for step in 0..<3_000 {
            let count = reference.count
            let value = 1_000 + step
            switch Int.random(in: 0..<7, using: &random) {
            case 0 where count > 0:
                let index = Int.random(in: 0..<count, using: &random)
                chunked[index] = value
                reference[index] = value
            case 1:
                let index = Int.random(in: 0...count, using: &random)
                chunked.insert(value, at: index)
                reference.insert(value, at: index)
            case 2 where count > 0:
                let index = Int.random(in: 0..<count, using: &random)
                #expect(chunked.remove(at: index) == reference.remove(at: index))
            case 3:
                let lower = Int.random(in: 0...count, using: &random)
                let upper = Int.random(in: lower...min(count, lower + 3 * chunkSize), using: &random)
                let new = (0..<Int.random(in: 0...2 * chunkSize, using: &random)).map { value * 10 + $0 }
                chunked.replaceSubrange(lower..<upper, with: new)
                reference.replaceSubrange(lower..<upper, with: new)
            case 4:
                chunked.append(value)
                reference.append(value)
            case 5 where count > 0:
                let lower = Int.random(in: 0..<count, using: &random)
                let upper = Int.random(in: lower...count, using: &random)
                let other = copies.last?.0 ?? chunked
                let otherReference = copies.last?.1 ?? reference
                let clampedUpper = min(upper, other.count)
                guard lower < clampedUpper else { continue }
                chunked.append(contentsOf: other, range: lower..<clampedUpper)
                reference.append(contentsOf: otherReference[lower..<clampedUpper])
            case 6 where count > 600:
                let lower = Int.random(in: 0..<count, using: &random)
                chunked.removeSubrange(lower...)
                reference.removeSubrange(lower...)
            default:
                continue
            }
            #expect(Array(chunked) == reference, "step \(step)")
            #expect(chunked.count == reference.count)
            #expect(chunked.hasValidChunks, "step \(step)")
            if step % 97 == 0 { copies.append((chunked, reference)) }
        }
        for (copy, expected) in copies {
            #expect(Array(copy) == expected)
            #expect(copy.indices.map { copy[$0] } == expected)
        }
    }

    /// A change to a copy of a large array copies one chunk: the copy shares the others.
    @Test func aChangeCopiesOneChunk() {
        let original = ChunkedArray(0..<100_000)
        var changed = original
        changed[50_000] = -1
        changed.insert(-2, at: 70_000)
        changed.remove(at: 10)
        #expect(changed.sharedChunkCount(with: original) >= original.chunks.count - 3)
        #expect(original[50_000] == 50_000 && original.count == 100_000)
        #expect(changed[50_000 - 1] == -1 && changed.count == 100_000)
    }

    /// Pieces appended from another array share its whole chunks and keep the chunks from
    /// fraying: many small pieces end up in few chunks.
    @Test func appendedPiecesShareWholeChunks() {
        let source = ChunkedArray(0..<10_000, chunkSize: 100)
        var built = ChunkedArray<Int>(chunkSize: 100)
        built.append(contentsOf: source, range: 0..<5_000)
        built.append(42)
        built.append(contentsOf: source, range: 5_000..<10_000)
        #expect(Array(built) == Array(0..<5_000) + [42] + Array(5_000..<10_000))
        #expect(built.sharedChunkCount(with: source) >= 95)
        var pieces = ChunkedArray<Int>(chunkSize: 100)
        for start in stride(from: 0, to: 10_000, by: 7) {
            pieces.append(contentsOf: source, range: start..<min(start + 3, 10_000))
        }
        #expect(pieces.hasValidChunks)
        #expect(pieces.chunks.count <= pieces.count / 50 + 1)
    }

    /// Random edits over many groups (chunks of 4, groups of 64 chunks: ~40 groups), each on
    /// a copy of the one before, against an `Array`: contents, well-formed chunks and groups,
    /// groups that do not fray, and the versions before left unchanged and mostly shared.
    @Test func manyGroupsAgreeWithAnArray() {
        var random = SplitMix64(seed: 12)
        var reference = Array(0..<10_000)
        var chunked = ChunkedArray(reference, chunkSize: 4)
        var versions: [(ChunkedArray<Int>, [Int])] = []
        for step in 0..<2_000 {
            let previous = chunked
            let count = reference.count
            let value = 100_000 + step
            let index = Int.random(in: 0..<count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                chunked[index] = value
                reference[index] = value
            case 1:
                chunked.insert(value, at: index)
                reference.insert(value, at: index)
            case 2:
                #expect(chunked.remove(at: index) == reference.remove(at: index))
            case 3:
                let upper = min(count, index + Int.random(in: 0...600, using: &random))
                let new = (0..<Int.random(in: 0...600, using: &random)).map { value * 1_000 + $0 }
                chunked.replaceSubrange(index..<upper, with: new)
                reference.replaceSubrange(index..<upper, with: new)
            default:
                // Rebuilt from the version before, with one element moved: as a patched list is.
                let target = Int.random(in: 0..<count, using: &random)
                var rebuilt = ChunkedArray<Int>(chunkSize: 4)
                var expected = reference
                let moved = expected.remove(at: index)
                expected.insert(moved, at: target)
                var removed = chunked
                removed.remove(at: index)
                rebuilt.append(contentsOf: removed, range: 0..<target)
                rebuilt.append(moved)
                rebuilt.append(contentsOf: removed, range: target..<removed.count)
                chunked = rebuilt
                reference = expected
                #expect(chunked.sharedGroupCount(with: previous) >= previous.groupCount - 8, "step \(step)")
            }
            guard Array(chunked) == reference, chunked.hasValidChunks else {
                Issue.record("step \(step): contents or chunks wrong")
                return
            }
            if step % 101 == 0 { versions.append((chunked, reference)) }
        }
        // About 2,500 chunks: no more than twice the groups a fresh cut would make.
        #expect(chunked.groupCount <= 2 * (chunked.count / 4 / 64 + 1))
        for (version, expected) in versions {
            #expect(Array(version) == expected)
            #expect(version.indices.map { version[$0] } == expected)
        }
    }

    /// A change to a copy of a large array copies one group's index: the copy shares the
    /// other groups.
    @Test func aChangeCopiesOneGroup() {
        let original = ChunkedArray(0..<1_000_000)
        #expect(original.groupCount == 31)
        var changed = original
        changed.insert(-1, at: 500_000)
        changed.remove(at: 10)
        #expect(changed.sharedGroupCount(with: original) == original.groupCount - 2)
        #expect(Array(original) == Array(0..<1_000_000))
    }

    @Test func equalityComparesElements() {
        let a = ChunkedArray(0..<1_000, chunkSize: 10)
        var b = ChunkedArray(0..<1_000, chunkSize: 7)
        #expect(a == b)
        b[999] = 0
        #expect(a != b)
        var c = a
        #expect(c == a)
        c[0] = 5
        #expect(c != a)
        #expect(ChunkedArray<Int>() == [])
    }
}
