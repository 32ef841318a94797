// `swift run -c release list-bench diff`: JSONPatch(from:to:) on 10k and 100k rows, in one
// section (a feed) and in 10 sections, under mixed edits (10% deletes, 10% inserts, 5% moves,
// 10% one-cell updates; see `diffBenchDocuments`).
// DifferenceKit's changeset on the same rows is measured by a throwaway package outside the
// repository with the same generator (see the diff helper's report); it is not a dependency.

import Foundation
import ListModel

func runDiffBenchmarks() {
    for (sections, rows) in [(1, 10_000), (1, 100_000), (10, 10_000), (10, 100_000)] {
        let (old, new, movesMade) = diffBenchDocuments(rows: rows, sections: sections)

        let iterations = rows >= 100_000 ? 7 : 21
        let seconds = medianSeconds(iterations: iterations) { blackHole(JSONPatch(from: old, to: new)) }
        let cpuSeconds = medianThreadCPUSeconds(iterations: iterations) { blackHole(JSONPatch(from: old, to: new)) }
        let patch = JSONPatch(from: old, to: new)
        var moves = 0
        for case .move in patch.operations { moves += 1 }
        let patchBytes = patch.serialized().count
        let documentBytes = new.json.serialized().count
        print(
            "  \(rows) rows in \(sections) section\(sections == 1 ? "" : "s"): JSONPatch(from:to:) median \(ms(seconds)) (thread CPU time \(ms(cpuSeconds))); \(patch.operations.count) operations"
        )
        print("    moves: \(moves) emitted, \(minimalRowMoves(old, new)) minimal, \(movesMade) made")
        print("    patch \(patchBytes) bytes vs new document \(documentBytes) bytes (\(percent(patchBytes, documentBytes)))")
    }
}

/// The fewest row moves from `old` to `new` when no section moves: per section, the rows
/// that stay off a longest increasing run, plus every row that changes section.
private func minimalRowMoves(_ old: ListDocument, _ new: ListDocument) -> Int {
    var place: [String: (section: String, index: Int)] = [:]
    for section in old.sections {
        for (index, row) in section.rows.enumerated() { place[row.key] = (section.key, index) }
    }
    var moves = 0
    for section in new.sections {
        var staying: [Int] = []
        for row in section.rows {
            guard let old = place[row.key] else { continue }
            if old.section == section.key { staying.append(old.index) } else { moves += 1 }
        }
        moves += staying.count - longestIncreasingSubsequence(staying).count
    }
    return moves
}

private func percent(_ part: Int, _ whole: Int) -> String {
    String(format: "%.1f%%", Double(part) / Double(whole) * 100)
}
