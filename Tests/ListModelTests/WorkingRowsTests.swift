import ListModelTesting
import Testing

@testable import ListModel

/// The rows of a section while a patch is applied: inserts, removals and replacements anywhere
/// (inside untouched runs, inside and beside runs of new rows) agree with the same edits to an
/// array of slots.
@Suite struct WorkingRowsTests {
    /// A slot as a comparable value: an original row's index, or a new row's number.
    func name(_ slot: RowSlot) -> String {
        switch slot {
        case .original(let section, let row): return "o\(section).\(row)"
        case .json(let value): return "n\(value.numberValue.map { Int($0) } ?? -1)"
        }
    }

    func names(_ rows: WorkingRows) -> [String] { (0..<rows.count).map { name(rows.slot(at: $0)) } }

    /// No empty piece, no two slots pieces side by side (they are joined), counts that add up.
    func isTidy(_ rows: WorkingRows) -> Bool {
        var previousIsSlots = false
        var total = 0
        for piece in rows.pieces {
            guard piece.count > 0 else { return false }
            let isSlots: Bool
            if case .slots = piece { isSlots = true } else { isSlots = false }
            if isSlots, previousIsSlots { return false }
            previousIsSlots = isSlots
            total += piece.count
        }
        return total == rows.count
    }

    @Test(arguments: [1, 2, 3])
    func randomEditsAgreeWithAnArray(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var rows = WorkingRows(section: 0, count: 300)
        var reference = (0..<300).map { "o0.\($0)" }
        for step in 0..<3_000 {
            let new = RowSlot.json(.number(Double(step)))
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let index = Int.random(in: 0...rows.count, using: &random)
                rows.insert(new, at: index)
                reference.insert("n\(step)", at: index)
            case 4..<7 where rows.count > 0:
                let index = Int.random(in: 0..<rows.count, using: &random)
                #expect(name(rows.remove(at: index)) == reference.remove(at: index))
            case 7..<9 where rows.count > 0:
                let index = Int.random(in: 0..<rows.count, using: &random)
                rows.replace(at: index, with: new)
                reference[index] = "n\(step)"
            default:
                rows.insert(new, at: 0)
                reference.insert("n\(step)", at: 0)
            }
            #expect(rows.count == reference.count)
            #expect(isTidy(rows), "step \(step)")
        }
        #expect(names(rows) == reference)
    }

    /// 100,000 rows inserted one by one at the front (one PATCH of as many `add`s) end up in
    /// reverse order before the untouched rows (each insert copies one chunk of the new rows;
    /// it used to copy all of them).
    @Test func manyInsertsAtTheFrontKeepTheirOrder() {
        var rows = WorkingRows(section: 0, count: 3)
        for n in 0..<100_000 { rows.insert(.json(.number(Double(n))), at: 0) }
        #expect(rows.count == 100_003)
        #expect(name(rows.slot(at: 0)) == "n99999")
        #expect(name(rows.slot(at: 99_999)) == "n0")
        #expect(name(rows.slot(at: 100_000)) == "o0.0")
        #expect(name(rows.slot(at: 100_002)) == "o0.2")
    }
}
