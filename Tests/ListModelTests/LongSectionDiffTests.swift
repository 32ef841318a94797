import ListModelTesting
import Testing

@testable import ListModel

/// One long section (a feed) under random bulk edits: rows deleted, inserted, moved to random
/// places and changed, in random proportions. The patch must turn the old document into the
/// new one with the fewest row moves: the kept rows minus a longest run of them that kept
/// their order.
@Suite struct LongSectionDiffTests {
    @Test func patchesApplyWithTheFewestMoves() throws {
        var keyed = 0
        for seed in UInt64(0)..<40 {
            var random = RandomListEdits(seed: 5_000 + seed)
            random.longRowKeys = seed % 2 == 0
            let rows = Int.random(in: 200...2_500, using: &random.random)
            let old = random.document(sections: 1, rowsPerSection: rows...rows)
            var new = random.mixedEdits(
                old, deletes: fraction(&random, upTo: 0.5), inserts: fraction(&random, upTo: 0.5),
                moves: fraction(&random, upTo: 0.5), updates: fraction(&random, upTo: 0.3)
            ).document
            // Half the time the new rows share no storage with the old ones, as when a PUT's
            // body is read: keys are then compared by their bytes.
            if seed % 4 < 2 { new = try ListDocument(json: JSONValue(parsing: new.json.serialized())) }

            let patch = JSONPatch(from: old, to: new)
            #expect(try patch.apply(to: old.json) == new.json, "seed \(seed)")
            guard patch.operations != [.replace(path: .root, value: new.json)] else { continue }
            keyed += 1
            #expect(rowMoves(patch) == fewestMoves(old, new), "seed \(seed)")
        }
        #expect(keyed >= 30)  // the rest got one root replace, being smaller
    }

    @Test func aReversedSectionMovesAllButOneRow() throws {
        var random = RandomListEdits(seed: 9)
        random.longRowKeys = true
        let old = random.document(sections: 1, rowsPerSection: 1_000...1_000)
        var new = old
        new.sections[0].rows = ChunkedArray(old.sections[0].rows.reversed())
        let patch = JSONPatch(from: old, to: new)
        #expect(try patch.apply(to: old.json) == new.json)
        #expect(rowMoves(patch) == 999)
    }

    @Test func anUnchangedCopyReadAgainNeedsNoOperation() throws {
        var random = RandomListEdits(seed: 11)
        random.longRowKeys = true
        let old = random.document(sections: 1, rowsPerSection: 3_000...3_000)
        let copy = try ListDocument(json: JSONValue(parsing: old.json.serialized()))
        #expect(JSONPatch(from: old, to: copy).operations.isEmpty)
    }

    private func fraction(_ random: inout RandomListEdits, upTo limit: Double) -> Double {
        Double.random(in: 0...limit, using: &random.random)
    }

    private func rowMoves(_ patch: JSONPatch) -> Int {
        var moves = 0
        for case .move in patch.operations { moves += 1 }
        return moves
    }

    /// Kept rows minus the longest run of them whose old positions increase in new order,
    /// computed apart from the diff: keys looked up in a dictionary, and the run's length by
    /// patience sorting on values (the diff's keeps indexes).
    private func fewestMoves(_ old: ListDocument, _ new: ListDocument) -> Int {
        var oldPosition: [String: Int] = [:]
        for (index, row) in old.sections[0].rows.enumerated() { oldPosition[row.key] = index }
        let kept = new.sections[0].rows.compactMap { oldPosition[$0.key] }
        var tails: [Int] = []  // tails[k]: the least last value of an increasing run of k + 1
        for value in kept {
            var low = 0
            var high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if tails[mid] < value { low = mid + 1 } else { high = mid }
            }
            if low == tails.count { tails.append(value) } else { tails[low] = value }
        }
        return kept.count - tails.count
    }
}
