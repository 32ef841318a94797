import ListModelTesting
import Testing

@testable import ListModel

/// Random documents and random edit scripts: the patch must turn the old document into the
/// new one, with the fewest moves, and never be larger than the new document.
@Suite struct DiffPropertyTests {
    static let cases = 4000

    @Test func patchesApplyMinimallyAndStaySmall() throws {
        var checkedMoves = 0
        for seed in 0..<UInt64(Self.cases) {
            var random = RandomListEdits(seed: seed)
            let old = random.document(
                sections: Int.random(in: 0...4, using: &random.random), rowsPerSection: 0...8)
            let new = random.edited(old, edits: Int.random(in: 0...12, using: &random.random))
            let patch = JSONPatch(from: old, to: new)

            // (a) Applying it to the old document gives the new one.
            let result = try patch.apply(to: old.json)
            #expect(result == new.json, "seed \(seed): \(patch.json.serializedText)")

            // (c) Never larger than the new document (plus the root replace's own overhead).
            let newSize = new.json.serialized().count
            #expect(patch.serialized().count <= newSize + 40, "seed \(seed)")

            // (b) Moves: exactly the minimum for sections and rows, unless replaced at the root.
            if patch.operations != [.replace(path: .root, value: new.json)] {
                checkedMoves += 1
                let (sectionMoves, rowMoves) = Self.moveCounts(patch)
                let minimum = MinimalMoves(old: old, new: new)
                #expect(sectionMoves == minimum.sections, "seed \(seed)")
                #expect(rowMoves == minimum.rows, "seed \(seed)")
            }
        }
        // Most cases must be real keyed patches, or (b) would test little.
        #expect(checkedMoves > Self.cases * 3 / 4)
    }

    /// Longer sections and scripts, so rows lie beyond the matcher's look-ahead and the
    /// hashed second pass, long move chains and section reorders get exercised.
    @Test func longerListsAndScripts() throws {
        var keyed = 0
        for seed in 100_000..<UInt64(100_300) {
            var random = RandomListEdits(seed: seed)
            let old = random.document(sections: Int.random(in: 1...6, using: &random.random), rowsPerSection: 10...40)
            let new = random.edited(old, edits: Int.random(in: 20...80, using: &random.random))
            let patch = JSONPatch(from: old, to: new)
            #expect(try patch.apply(to: old.json) == new.json, "seed \(seed)")
            #expect(patch.serialized().count <= new.json.serialized().count + 40, "seed \(seed)")
            if patch.operations != [.replace(path: .root, value: new.json)] {
                keyed += 1
                let (sectionMoves, rowMoves) = Self.moveCounts(patch)
                let minimum = MinimalMoves(old: old, new: new)
                #expect(sectionMoves == minimum.sections, "seed \(seed)")
                #expect(rowMoves == minimum.rows, "seed \(seed)")
            }
        }
        #expect(keyed > 200)  // most are keyed patches (218 of 300 when written)
    }

    @Test func sizeBookkeepingIsExact() {
        for seed in 0..<UInt64(500) {
            var random = RandomListEdits(seed: seed)
            let old = random.document(sections: Int.random(in: 0...4, using: &random.random), rowsPerSection: 0...6)
            let new = random.edited(old, edits: Int.random(in: 0...12, using: &random.random))
            #expect(CanonicalSize.document(new) == new.json.serialized().count, "seed \(seed)")
            #expect(CanonicalSize.documentLowerBound(new) <= CanonicalSize.document(new), "seed \(seed)")
            var diff = KeyedListDiff(old: old, new: new)
            let writer = diff.run()
            #expect(diff.exactSize(of: writer) == JSONPatch(operations: writer.operations).serialized().count, "seed \(seed)")
            #expect(
                diff.documentLowerBoundWithoutNewRows() + diff.exactSize(of: writer) - writer.size
                    <= CanonicalSize.document(new), "seed \(seed)")
        }
    }

    @Test func largeListsWithMixedEdits() throws {
        var random = RandomListEdits(seed: 7)
        let old = random.document(sections: 10, rowsPerSection: 150...250)
        let edit = random.mixedEdits(old, deletes: 0.1, inserts: 0.1, moves: 0.05, updates: 0.1)
        let patch = JSONPatch(from: old, to: edit.document)
        #expect(try patch.apply(to: old.json) == edit.document.json)
        let (sectionMoves, rowMoves) = Self.moveCounts(patch)
        #expect(sectionMoves == 0)
        #expect(rowMoves == MinimalMoves(old: old, new: edit.document).rows)
        #expect(rowMoves <= edit.movesMade)
        #expect(patch.serialized().count * 2 < edit.document.json.serialized().count)
    }

    /// The numbers of section moves and row moves in a patch.
    static func moveCounts(_ patch: JSONPatch) -> (sections: Int, rows: Int) {
        var sections = 0
        var rows = 0
        for case .move(let from, _) in patch.operations {
            if from.tokens.count == 2 { sections += 1 } else { rows += 1 }
        }
        return (sections, rows)
    }
}

/// The fewest moves any patch needs, computed independently of the diff (quadratic LIS).
///
/// A kept item that is never moved keeps its order relative to the other unmoved ones, so
/// the unmoved items of a container form an increasing run of old positions; a row whose
/// section key changed must move.
struct MinimalMoves {
    var sections = 0
    var rows = 0

    init(old: ListDocument, new: ListDocument) {
        let oldSectionIndex = Dictionary(uniqueKeysWithValues: old.sections.enumerated().map { ($1.key, $0) })
        let keptSections = new.sections.compactMap { oldSectionIndex[$0.key] }
        sections = keptSections.count - Self.longestRun(keptSections)

        var oldRowPlace: [String: (section: String, index: Int)] = [:]
        for section in old.sections {
            for (index, row) in section.rows.enumerated() { oldRowPlace[row.key] = (section.key, index) }
        }
        for section in new.sections {
            var staying: [Int] = []
            for row in section.rows {
                guard let place = oldRowPlace[row.key] else { continue }
                if place.section == section.key { staying.append(place.index) } else { rows += 1 }
            }
            rows += staying.count - Self.longestRun(staying)
        }
    }

    /// The length of a longest strictly increasing subsequence, by dynamic programming.
    static func longestRun(_ values: [Int]) -> Int {
        var best = [Int](repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
        }
        return best.max() ?? 0
    }
}
