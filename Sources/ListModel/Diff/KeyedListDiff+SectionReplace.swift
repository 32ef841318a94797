// Which kept sections the keyed diff replaces whole (phase 5) rather than emptying and
// refilling them row by row (phases 1 and 4).

extension KeyedListDiff {
    /// For each new section: whether it is a kept section with no kept row on either side (so
    /// no move touches it) for which one `replace` is smaller than the `remove` of each old
    /// row and the `add` of each new one. O(rows of such sections).
    static func sectionsReplacedWhole(old: ListDocument, new: ListDocument, match: KeyedMatch) -> [Bool] {
        var replaced = [Bool](repeating: false, count: new.sections.count)
        for (newSection, oldSection) in match.newSectionOld.enumerated() where oldSection >= 0 {
            let oldRows = match.oldRowStart[oldSection]..<match.oldRowStart[oldSection + 1]
            let newRows = match.newRowStart[newSection]..<match.newRowStart[newSection + 1]
            guard !oldRows.isEmpty || newRows.count > 1,
                !oldRows.contains(where: { match.oldRowNew[$0] >= 0 }),
                !newRows.contains(where: { match.isKept(newRow: $0) })
            else { continue }
            let section = new.sections[newSection]
            var rowByRow = 0
            for index in oldRows.indices {
                rowByRow += PatchWriter.removeSize(path: OperationPath.row(oldSection, index - oldRows.lowerBound)) + 1
            }
            var rowsSize = 0
            for (index, row) in section.rows.enumerated() {
                let size = CanonicalSize.row(row)
                rowsSize += size + 1
                rowByRow += PatchWriter.valueOperationSize(op: "add", path: OperationPath.row(newSection, index), valueSize: size) + 1
            }
            let whole = PatchWriter.valueOperationSize(
                op: "replace", path: OperationPath.section(newSection),
                valueSize: CanonicalSize.section(section, rows: []) + rowsSize)
            replaced[newSection] = whole < rowByRow
        }
        return replaced
    }
}
