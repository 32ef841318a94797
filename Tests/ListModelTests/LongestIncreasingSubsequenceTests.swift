import Testing

@testable import ListModel

@Suite struct LongestIncreasingSubsequenceTests {
    @Test func emptyAndSingle() {
        #expect(longestIncreasingSubsequence([Int]()) == [])
        #expect(longestIncreasingSubsequence([7]) == [0])
    }

    @Test func findsALongestRun() {
        let values = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9]
        let run = longestIncreasingSubsequence(values)
        #expect(run.count == 6)
        #expect(run == run.sorted())
        for (a, b) in zip(run, run.dropFirst()) { #expect(values[a] < values[b]) }
    }

    @Test func matchesBruteForceOnSmallPermutations() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let values = Array(0..<8).shuffled(using: &generator)
            var best = 0
            for mask in 0..<(1 << values.count) {
                let picked = values.indices.filter { mask & (1 << $0) != 0 }.map { values[$0] }
                if picked == picked.sorted() { best = max(best, picked.count) }
            }
            #expect(longestIncreasingSubsequence(values).count == best)
        }
    }
}
