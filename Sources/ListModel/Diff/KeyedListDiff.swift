/// Computes the keyed patch from one document to another, phase by phase.
///
/// Each operation's indexes are valid against the document as the operations before it left
/// it. The phases:
/// 1. Removals, from the last old section to the first (so earlier indexes never shift):
///    gone sections whole, and gone rows of kept sections from the bottom up. A gone section
///    that still holds kept rows *lingers* until phase 4.
/// 2. Sections into their final order: every kept section off the longest increasing run
///    moves once, new sections are added (holding only their new rows). Lingering sections
///    stay where they are.
/// 3. Rows into their final order: every kept row that is not an anchor moves once, within
///    its section or across sections.
/// 4. Lingering sections are removed; new rows of kept sections are added in ascending final
///    order, so each one's final index is its index at that moment.
/// 5. Content, at final positions: changed members of kept sections and kept rows, then the
///    list's own members. A kept section whose rows are all new (none kept on either side) is
///    replaced whole instead, when that is smaller than phases 1 and 4 removing and adding
///    its rows (which they then skip).
///
/// Phases 2 and 3 place items on a line of slots (``layOutSlots``) and count occupied slots
/// with a Fenwick tree (``PresenceCounter``), so each move costs O(log n).
struct KeyedListDiff {
    let old: ListDocument
    let new: ListDocument
    let match: KeyedMatch
    var writer = PatchWriter()

    /// For each old section that survives phase 1 (kept or lingering), its index after phase 2.
    private var survivorIndex: [Int] = []
    /// For each new section, its index after phase 2 (before lingering sections go).
    private var newSectionIndex: [Int] = []
    /// For each new section, whether it is replaced whole in phase 5 instead of having its rows
    /// removed and added (see ``sectionsReplacedWhole(old:new:match:)``).
    let replacedWhole: [Bool]

    init(old: ListDocument, new: ListDocument) {
        self.old = old
        self.new = new
        let match = KeyedMatch(old: old, new: new)
        self.match = match
        self.replacedWhole = Self.sectionsReplacedWhole(old: old, new: new, match: match)
    }

    /// The operations, in order.
    mutating func run() -> PatchWriter {
        removeGoneItems()
        placeSections()
        placeRows()
        removeLingeringSectionsAndAddRows()
        updateContent()
        return writer
    }

    // MARK: Phase 1

    private mutating func removeGoneItems() {
        for oldSection in old.sections.indices.reversed() {
            if match.oldSectionNew[oldSection] < 0 {
                if !match.sectionLingers[oldSection] { writer.remove(OperationPath.section(oldSection)) }
                continue
            }
            if replacedWhole[match.oldSectionNew[oldSection]] { continue }
            let start = match.oldRowStart[oldSection]
            for oldRow in (start..<match.oldRowStart[oldSection + 1]).reversed() where match.oldRowNew[oldRow] < 0 {
                writer.remove(OperationPath.row(oldSection, oldRow - start))
            }
        }
    }

    // MARK: Phase 2

    private mutating func placeSections() {
        let match = self.match
        let survivors = old.sections.indices.filter { match.oldSectionNew[$0] >= 0 || match.sectionLingers[$0] }
        var oldSlot = [Int](repeating: 0, count: old.sections.count)
        var newSlot = [Int](repeating: 0, count: new.sections.count)
        let slotCount = layOutSlots(
            oldCount: survivors.count,
            oldIsAnchor: { position in
                let newSection = match.oldSectionNew[survivors[position]]
                return newSection >= 0 && match.sectionIsAnchor[newSection]
            },
            newCount: new.sections.count, newIsAnchor: { match.sectionIsAnchor[$0] },
            base: 0,
            oldSlot: { oldSlot[survivors[$0]] = $1 }, newSlot: { newSlot[$0] = $1 })
        var occupied = [Bool](repeating: false, count: slotCount)
        for survivor in survivors { occupied[oldSlot[survivor]] = true }
        var counter = PresenceCounter(occupied: occupied)

        for (newSection, oldSection) in match.newSectionOld.enumerated() where !match.sectionIsAnchor[newSection] {
            if oldSection >= 0 {
                let from = counter.occupiedBefore(oldSlot[oldSection])
                counter.free(oldSlot[oldSection])
                let to = counter.occupiedBefore(newSlot[newSection])
                counter.occupy(newSlot[newSection])
                writer.move(from: OperationPath.section(from), to: OperationPath.section(to))
            } else {
                let to = counter.occupiedBefore(newSlot[newSection])
                counter.occupy(newSlot[newSection])
                addSection(newSection, at: to)
            }
        }
        survivorIndex = [Int](repeating: -1, count: old.sections.count)
        for survivor in survivors where match.sectionLingers[survivor] {
            survivorIndex[survivor] = counter.occupiedBefore(oldSlot[survivor])
        }
        newSectionIndex = newSlot.map { counter.occupiedBefore($0) }
        for (oldSection, newSection) in match.oldSectionNew.enumerated() where newSection >= 0 {
            survivorIndex[oldSection] = newSectionIndex[newSection]
        }
    }

    /// Adds a new section holding only its new rows; kept rows move in during phase 3.
    ///
    /// Like every new row's value, those rows are not counted in `writer.size` (see
    /// ``exactSize(of:)``).
    private mutating func addSection(_ newSection: Int, at index: Int) {
        var section = new.sections[newSection]
        let start = match.newRowStart[newSection]
        if (start..<match.newRowStart[newSection + 1]).contains(where: { match.isKept(newRow: $0) }) {
            let match = self.match
            section.rows = ChunkedArray(section.rows.indices.filter { !match.isKept(newRow: start + $0) }.map { section.rows[$0] })
        }
        writer.add(
            OperationPath.section(index), section.json(columns: new.columns),
            valueSize: CanonicalSize.section(section, rows: []) + max(section.rows.count - 1, 0))
    }

    // MARK: Phase 3

    private mutating func placeRows() {
        let match = self.match
        let oldRowCount = match.oldRowNew.count
        var oldSlot = [Int](repeating: -1, count: oldRowCount)
        var newSlot = [Int](repeating: 0, count: match.newRowOld.count)
        // Each container (a new section, or a lingering old section) gets a contiguous range.
        var newSectionBase = [Int](repeating: 0, count: new.sections.count)
        var oldSectionBase = [Int](repeating: 0, count: old.sections.count)
        var next = 0
        var keptOldRows: [Int] = []
        for newSection in new.sections.indices {
            newSectionBase[newSection] = next
            let newStart = match.newRowStart[newSection]
            let oldSection = match.newSectionOld[newSection]
            keptOldRows.removeAll(keepingCapacity: true)
            if oldSection >= 0 {
                oldSectionBase[oldSection] = next
                for oldRow in match.oldRowStart[oldSection]..<match.oldRowStart[oldSection + 1]
                where match.oldRowNew[oldRow] >= 0 {
                    keptOldRows.append(oldRow)
                }
            }
            next = layOutSlots(
                oldCount: keptOldRows.count,
                oldIsAnchor: { match.newRowIsAnchor[Int(match.oldRowNew[keptOldRows[$0]])] },
                newCount: match.newRowStart[newSection + 1] - newStart,
                newIsAnchor: { match.newRowIsAnchor[newStart + $0] },
                base: next,
                oldSlot: { oldSlot[keptOldRows[$0]] = $1 }, newSlot: { newSlot[newStart + $0] = $1 })
        }
        for oldSection in old.sections.indices where match.sectionLingers[oldSection] {
            oldSectionBase[oldSection] = next
            for oldRow in match.oldRowStart[oldSection]..<match.oldRowStart[oldSection + 1] {
                oldSlot[oldRow] = next
                next += 1
            }
        }

        // Occupied now: every old row still in the document, and the new rows that came
        // with added sections.
        var occupied = [Bool](repeating: false, count: next)
        for slot in oldSlot where slot >= 0 { occupied[slot] = true }
        for (newSection, oldSection) in match.newSectionOld.enumerated() where oldSection < 0 {
            for newRow in match.newRowStart[newSection]..<match.newRowStart[newSection + 1]
            where !match.isKept(newRow: newRow) {
                occupied[newSlot[newRow]] = true
            }
        }
        var counter = PresenceCounter(occupied: occupied)

        for newSection in new.sections.indices {
            let newStart = match.newRowStart[newSection]
            let base = newSectionBase[newSection]
            for newRow in newStart..<match.newRowStart[newSection + 1] where match.moves(newRow: newRow) {
                let oldRow = Int(match.newRowOld[newRow])
                let fromSection = Int(match.oldRowSection[oldRow])
                let from = counter.occupiedBefore(oldSlot[oldRow]) - counter.occupiedBefore(oldSectionBase[fromSection])
                counter.free(oldSlot[oldRow])
                let to = counter.occupiedBefore(newSlot[newRow]) - counter.occupiedBefore(base)
                counter.occupy(newSlot[newRow])
                writer.move(
                    from: OperationPath.row(survivorIndex[fromSection], from),
                    to: OperationPath.row(newSectionIndex[newSection], to))
            }
        }
    }

    // MARK: Phase 4

    private mutating func removeLingeringSectionsAndAddRows() {
        // Old order is current order among survivors, so descending old index is bottom-up.
        for oldSection in old.sections.indices.reversed() where match.sectionLingers[oldSection] {
            writer.remove(OperationPath.section(survivorIndex[oldSection]))
        }
        for (newSection, oldSection) in match.newSectionOld.enumerated()
        where oldSection >= 0 && !replacedWhole[newSection] {
            let start = match.newRowStart[newSection]
            for newRow in start..<match.newRowStart[newSection + 1] where !match.isKept(newRow: newRow) {
                // The row's size is left out of `writer.size` (see `exactSize(of:)`).
                writer.add(
                    OperationPath.row(newSection, newRow - start),
                    new.sections[newSection].rows[newRow - start].json(columns: new.columns), valueSize: 0)
            }
        }
    }

    // MARK: Phase 5

    private mutating func updateContent() {
        for (newSection, oldSection) in match.newSectionOld.enumerated() where oldSection >= 0 {
            if replacedWhole[newSection] {
                // Its rows are all new: their sizes are left out, as for added rows.
                let section = new.sections[newSection]
                writer.replace(
                    OperationPath.section(newSection), section.json(columns: new.columns),
                    valueSize: CanonicalSize.section(section, rows: []) + max(section.rows.count - 1, 0))
            } else {
                writer.appendSectionChanges(from: old.sections[oldSection], to: new.sections[newSection], at: newSection)
            }
        }
        updateRows()
        writer.appendListChanges(from: old, to: new)
    }

    // MARK: Sizes

    /// Whether the patch in `writer` is larger than `overhead` plus the new document.
    func exceedsDocument(_ writer: PatchWriter, overhead: Int) -> Bool {
        var keptRows = 0
        for newRow in match.newRowOld where newRow >= 0 { keptRows += 1 }
        return Self.exceedsDocument(
            writer, new: new, keptRows: keptRows, overhead: overhead,
            newRowsLowerBound: { CanonicalSize.documentLowerBound(new) - documentLowerBoundWithoutNewRows() },
            newRowsSize: { exactSize(of: writer) - writer.size })
    }

    /// Whether the patch in `writer`, which leaves out the values of the new document's new
    /// rows (`keptRows` rows are not new), is larger than `overhead` plus the new document.
    ///
    /// New rows are in both, so the cheap tests leave them out: first a bound that reads no
    /// row (a frame per section, the least size per kept row), then one that reads each row's
    /// counts (`newRowsLowerBound`: the new rows' lower bounds), and only then the exact sizes,
    /// which read every string (`newRowsSize`: the new rows' sizes).
    static func exceedsDocument(
        _ writer: PatchWriter, new: ListDocument, keptRows: Int, overhead: Int,
        newRowsLowerBound: () -> Int, newRowsSize: () -> Int
    ) -> Bool {
        let leastRow = CanonicalSize.rowLowerBound(Row(key: "")) + 1
        if writer.size <= new.sections.count * 60 + keptRows * leastRow + overhead { return false }
        if writer.size <= CanonicalSize.documentLowerBound(new) - newRowsLowerBound() + overhead { return false }
        return writer.size + newRowsSize() > CanonicalSize.document(new) + overhead
    }

    /// The serialized size of the patch `writer` holds: its counted size plus the values of
    /// the new rows, which phases 2 and 4 leave out because they are part of the new document
    /// too (so comparing against the document rarely needs them). O(new rows).
    func exactSize(of writer: PatchWriter) -> Int {
        var size = writer.size
        for newSection in new.sections.indices {
            let start = match.newRowStart[newSection]
            for newRow in start..<match.newRowStart[newSection + 1] where !match.isKept(newRow: newRow) {
                size += CanonicalSize.row(new.sections[newSection].rows[newRow - start])
            }
        }
        return size
    }

    /// A lower bound of the new document's size without its new rows: what `writer.size`
    /// must not exceed for the patch to be smaller than the document. O(rows), no string reads.
    func documentLowerBoundWithoutNewRows() -> Int {
        var size = CanonicalSize.documentLowerBound(new)
        for newSection in new.sections.indices {
            let start = match.newRowStart[newSection]
            for newRow in start..<match.newRowStart[newSection + 1] where !match.isKept(newRow: newRow) {
                size -= CanonicalSize.rowLowerBound(new.sections[newSection].rows[newRow - start])
            }
        }
        return size
    }
}
