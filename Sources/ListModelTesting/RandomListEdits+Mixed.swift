import ListModel

// Bulk mixed edits of large lists, for the diff benchmark (test utility; see RandomListEdits.swift).

extension RandomListEdits {
    /// The result of ``mixedEdits(_:deletes:inserts:moves:updates:)``.
    public struct MixedEdit {
        public var document: ListDocument
        /// How many rows were taken out and put back elsewhere (half within their section).
        public var movesMade: Int
    }

    /// `document` with the given fractions of its rows deleted, inserted (fresh rows),
    /// moved (to a random place in their own section or, half the time, in any section) and
    /// updated (one cell changed), all at random and distinct. O(n log n).
    public mutating func mixedEdits(
        _ document: ListDocument, deletes: Double, inserts: Double, moves: Double, updates: Double
    ) -> MixedEdit {
        let rowCount = document.rowCount
        let sectionCount = document.sections.count
        precondition(sectionCount > 0, "needs a section")
        let deleteCount = Int(Double(rowCount) * deletes)
        let moveCount = Int(Double(rowCount) * moves)
        let updateCount = Int(Double(rowCount) * updates)
        let insertCount = Int(Double(rowCount) * inserts)
        // 0 keep, 1 delete, 2 move, 3 update: assigned to distinct random rows.
        var fate = [UInt8](repeating: 0, count: rowCount)
        var order = Array(0..<rowCount)
        for index in 0..<min(rowCount, deleteCount + moveCount + updateCount) {
            order.swapAt(index, Int.random(in: index..<rowCount, using: &random))
            fate[order[index]] = index < deleteCount ? 1 : index < deleteCount + moveCount ? 2 : 3
        }

        var edited = document
        var travellers: [(section: Int, row: Row)] = []  // moved rows and new rows, with their target
        var flat = 0
        for (sectionIndex, section) in document.sections.enumerated() {
            var kept: [Row] = []
            kept.reserveCapacity(section.rows.count)
            for var row in section.rows {
                switch fate[flat] {
                case 1: break
                case 2:
                    let target = Bool.random(using: &random) ? sectionIndex : Int.random(in: 0..<sectionCount, using: &random)
                    travellers.append((target, row))
                case 3:
                    row.cells["pop"] = .number(number())
                    kept.append(row)
                default: kept.append(row)
                }
                flat += 1
            }
            edited.sections[sectionIndex].rows = ChunkedArray(kept)
        }
        for _ in 0..<insertCount {
            travellers.append((Int.random(in: 0..<sectionCount, using: &random), row(columns: document.columns)))
        }

        // Put travellers at random places among each section's remaining rows.
        var placed = [[(position: Int, row: Row)]](repeating: [], count: sectionCount)
        for traveller in travellers {
            let position = Int.random(in: 0...edited.sections[traveller.section].rows.count, using: &random)
            placed[traveller.section].append((position, traveller.row))
        }
        for sectionIndex in 0..<sectionCount where !placed[sectionIndex].isEmpty {
            let arrivals = placed[sectionIndex].sorted { $0.position < $1.position }
            let stayers = edited.sections[sectionIndex].rows
            var merged: [Row] = []
            merged.reserveCapacity(stayers.count + arrivals.count)
            var next = 0
            for (position, row) in arrivals {
                while next < position {
                    merged.append(stayers[next])
                    next += 1
                }
                merged.append(row)
            }
            merged.append(contentsOf: stayers[next...])
            edited.sections[sectionIndex].rows = ChunkedArray(merged)
        }
        return MixedEdit(document: edited, movesMade: moveCount)
    }
}
