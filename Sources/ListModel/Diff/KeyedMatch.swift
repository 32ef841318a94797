/// How the sections and rows of two documents correspond by key, and which of them stay put.
///
/// Rows are numbered in one flat sequence per document (section by section). A row is *kept*
/// when its key is in both documents; a kept row *stays* when its section (by key) is the same
/// in both; among the staying rows of a section, a longest increasing subsequence of old
/// positions are the *anchors*, which no operation touches. Sections likewise: kept sections
/// whose old positions form a longest increasing subsequence are anchors.
struct KeyedMatch {
    /// For each old section, the index of the new section with its key, or -1.
    var oldSectionNew: [Int]
    /// For each new section, the index of the old section with its key, or -1.
    var newSectionOld: [Int]
    /// For each new section, whether it is a kept section that does not move.
    var sectionIsAnchor: [Bool]
    /// For each old section that is gone but holds kept rows: true. Such a section stays
    /// until those rows have moved out of it.
    var sectionLingers: [Bool]

    /// Where each section's rows start in the flat numbering, plus the total at the end.
    var oldRowStart: [Int]
    var newRowStart: [Int]
    /// For each old row (flat), its old section.
    var oldRowSection: [Int32]
    /// For each old row (flat), the flat index of the new row with its key, or -1.
    var oldRowNew: [Int32]
    /// For each new row (flat), the flat index of the old row with its key, or -1.
    var newRowOld: [Int32]
    /// For each new row (flat), whether it is an anchor.
    var newRowIsAnchor: [Bool]

    init(old: ListDocument, new: ListDocument) {
        // Sections by key.
        var oldSectionByKey = [ByteKey: Int](minimumCapacity: old.sections.count)
        for (index, section) in old.sections.enumerated() { oldSectionByKey[ByteKey(section.key)] = index }
        var oldSectionNew = [Int](repeating: -1, count: old.sections.count)
        var newSectionOld = [Int](repeating: -1, count: new.sections.count)
        for (index, section) in new.sections.enumerated() {
            // A repeated key (an invalid document) matches once; later copies count as new.
            if let oldIndex = oldSectionByKey[ByteKey(section.key)], oldSectionNew[oldIndex] == -1 {
                oldSectionNew[oldIndex] = index
                newSectionOld[index] = oldIndex
            }
        }
        let keptSections = newSectionOld.indices.filter { newSectionOld[$0] >= 0 }
        sectionIsAnchor = Self.anchors(in: keptSections, count: new.sections.count) { newSectionOld[$0] }
        self.oldSectionNew = oldSectionNew
        self.newSectionOld = newSectionOld

        // Rows by key across the whole list.
        let oldRowStart = Self.starts(of: old.sections)
        let newRowStart = Self.starts(of: new.sections)
        let newCount = newRowStart[new.sections.count]
        let (oldRowSection, oldRowNew, newRowOld) = Self.matchRows(
            old: old, new: new, oldRowStart: oldRowStart, newRowStart: newRowStart, newSectionOld: newSectionOld)

        // Row anchors: per kept section, the staying rows on a longest increasing run.
        var newRowIsAnchor = [Bool](repeating: false, count: newCount)
        var staying: [Int] = []
        for (newSection, oldSection) in newSectionOld.enumerated() where oldSection >= 0 {
            staying.removeAll(keepingCapacity: true)
            for newRow in newRowStart[newSection]..<newRowStart[newSection + 1] {
                let oldRow = Int(newRowOld[newRow])
                if oldRow >= 0 && Int(oldRowSection[oldRow]) == oldSection { staying.append(newRow) }
            }
            let run = longestIncreasingSubsequence(staying.map { newRowOld[$0] })
            for position in run { newRowIsAnchor[staying[position]] = true }
        }

        // Gone sections that still hold kept rows.
        var sectionLingers = [Bool](repeating: false, count: old.sections.count)
        for oldSection in old.sections.indices where oldSectionNew[oldSection] < 0 {
            sectionLingers[oldSection] = oldRowNew[oldRowStart[oldSection]..<oldRowStart[oldSection + 1]]
                .contains { $0 >= 0 }
        }
        self.sectionLingers = sectionLingers
        self.oldRowStart = oldRowStart
        self.newRowStart = newRowStart
        self.oldRowSection = oldRowSection
        self.oldRowNew = oldRowNew
        self.newRowOld = newRowOld
        self.newRowIsAnchor = newRowIsAnchor
    }

    /// Whether a new row is kept (its key was in the old document).
    @inline(__always) func isKept(newRow: Int) -> Bool { newRowOld[newRow] >= 0 }

    /// Whether a new row moves: kept but not an anchor.
    @inline(__always) func moves(newRow: Int) -> Bool { newRowOld[newRow] >= 0 && !newRowIsAnchor[newRow] }

    /// Marks, among `count` items, those of `kept` (ascending new positions) on a longest
    /// increasing run of their old positions.
    private static func anchors(in kept: [Int], count: Int, oldPosition: (Int) -> Int) -> [Bool] {
        var isAnchor = [Bool](repeating: false, count: count)
        for position in longestIncreasingSubsequence(kept.map(oldPosition)) { isAnchor[kept[position]] = true }
        return isAnchor
    }

    /// The flat index of each section's first row, and the row count at the end.
    private static func starts(of sections: [Section]) -> [Int] {
        var starts = [0]
        starts.reserveCapacity(sections.count + 1)
        for section in sections { starts.append(starts[starts.count - 1] + section.rows.count) }
        return starts
    }
}
