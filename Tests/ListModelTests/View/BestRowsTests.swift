import ListModelTesting
import Testing

@testable import ListModel

/// The rows a one-pass read keeps (`BestRows`, `FirstIndexes`) are the first in view order
/// whatever order the rows are offered in: a section read from its end offers them block by
/// block, not in list order.
@Suite struct BestRowsTests {
    @Test func theBestRowsDoNotDependOnTheOrderTheyAreOfferedIn() {
        var rng = SplitMix64(seed: 2811)
        for round in 0..<400 {
            let rowCount = Int.random(in: 1...600, using: &rng)
            // Few distinct values (many ties), some longer than the 16 bytes a prefix holds.
            let values: [[UInt8]] = (0..<rowCount).map { _ in
                let stem = Array("value \(Int.random(in: 0...9, using: &rng))".utf8)
                return Bool.random(using: &rng) ? stem : Array("a value shared by many rows \(Int.random(in: 0...3, using: &rng))".utf8)
            }
            let descending = Bool.random(using: &rng)
            let count = Int.random(in: 1...80, using: &rng)
            var best = BestRows(count: count, descending: descending)
            for row in Array(0..<rowCount).shuffled(using: &rng) { best.offer(values[row], row: row) }
            let expected = (0..<rowCount).sorted { a, b in
                let order = compareBytes(values[a], values[b])
                if order != 0 { return descending ? order > 0 : order < 0 }
                return a < b
            }.prefix(count)
            #expect(best.sorted().map(\.row) == Array(expected), "round \(round)")
        }
    }

    @Test func theFirstIndexesDoNotDependOnTheOrderTheyAreOfferedIn() {
        var rng = SplitMix64(seed: 2812)
        for round in 0..<200 {
            let indexes = Array(0..<Int.random(in: 0...300, using: &rng))
            let count = Int.random(in: 1...50, using: &rng)
            var first = FirstIndexes(count: count)
            for index in indexes.shuffled(using: &rng) { first.offer(index) }
            #expect(first.sorted() == Array(indexes.prefix(count)), "round \(round)")
        }
    }
}
