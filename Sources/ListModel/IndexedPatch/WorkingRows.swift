/// One row of a section while a patch is applied to an `IndexedList`.
enum RowSlot {
    /// A row of the list before the patch, untouched: section and row index in the old document.
    case original(section: Int, row: Int)
    /// A row the patch added or changed, as JSON (not validated yet).
    case json(JSONValue)
}

/// The rows of one section while a patch is applied: runs of the old document's rows that
/// the patch has not touched, and the slots it has. Reading, inserting or removing one row
/// costs a walk over the pieces (a handful for a small patch), never a copy of the section;
/// slots are a `ChunkedArray`, so that a row inserted into a long run of new rows (100,000 adds
/// at index 0) copies one chunk of them, not all.
struct WorkingRows {
    enum Piece {
        /// Untouched rows `rows` of old section `section`.
        case run(section: Int, rows: Range<Int>)
        case slots(ChunkedArray<RowSlot>)

        var count: Int {
            switch self {
            case .run(_, let rows): return rows.count
            case .slots(let slots): return slots.count
            }
        }
    }

    private(set) var pieces: [Piece]
    private(set) var count: Int

    /// Past this many pieces, the rows are turned into slots, one piece, so that a patch of
    /// thousands of scattered operations does not walk thousands of pieces for each.
    static let maxPieces = 64

    /// The untouched rows of old section `section`, which holds `count` rows.
    init(section: Int, count: Int) {
        pieces = count > 0 ? [.run(section: section, rows: 0..<count)] : []
        self.count = count
    }

    /// Rows from JSON values (a `rows` array the patch set).
    init(json elements: [JSONValue]) {
        pieces = elements.isEmpty ? [] : [.slots(ChunkedArray(elements.lazy.map(RowSlot.json)))]
        count = elements.count
    }

    /// The row at `index` (`0..<count`).
    func slot(at index: Int) -> RowSlot {
        let (piece, offset) = locate(index)
        switch pieces[piece] {
        case .run(let section, let rows): return .original(section: section, row: rows.lowerBound + offset)
        case .slots(let slots): return slots[offset]
        }
    }

    /// Puts `slot` at `index` (`0...count`).
    mutating func insert(_ slot: RowSlot, at index: Int) {
        if let (piece, offset) = slotsPiece(around: index), case .slots(var slots) = pieces[piece] {
            pieces[piece] = .slots([])  // so that `slots` is not shared while it changes
            slots.insert(slot, at: offset)
            pieces[piece] = .slots(slots)
        } else {
            let piece = split(at: index)
            pieces.insert(.slots([slot]), at: piece)
            mergeSlots(around: piece)
        }
        count += 1
        compactIfNeeded()
    }

    /// Removes and returns the row at `index` (`0..<count`): one walk over the pieces to find
    /// it, then the piece holding it is cut in place.
    mutating func remove(at index: Int) -> RowSlot {
        let (found, offset) = locate(index)
        count -= 1
        switch pieces[found] {
        case .slots(var slots):
            pieces[found] = .slots([])  // so that `slots` is not shared while it changes
            let removed = slots.remove(at: offset)
            if slots.isEmpty {
                pieces.remove(at: found)
                if found > 0 { mergeSlots(around: found - 1) }
            } else {
                pieces[found] = .slots(slots)
            }
            return removed
        case .run(let section, let rows):
            let row = rows.lowerBound + offset
            var rest: [Piece] = []
            if row > rows.lowerBound { rest.append(.run(section: section, rows: rows.lowerBound..<row)) }
            if row + 1 < rows.upperBound { rest.append(.run(section: section, rows: row + 1..<rows.upperBound)) }
            pieces.replaceSubrange(found...found, with: rest)
            if rest.isEmpty, found > 0 { mergeSlots(around: found - 1) }
            compactIfNeeded()
            return .original(section: section, row: row)
        }
    }

    /// Replaces the row at `index` (`0..<count`).
    mutating func replace(at index: Int, with slot: RowSlot) {
        let (piece, offset) = locate(index)
        if case .slots(var slots) = pieces[piece] {
            pieces[piece] = .slots([])
            slots[offset] = slot
            pieces[piece] = .slots(slots)
            return
        }
        _ = remove(at: index)
        insert(slot, at: index)
    }

    /// The slots piece that `index` (`0...count`) falls in or right after the end of, and the
    /// offset in it; nil when `index` is inside a run or between two runs.
    private func slotsPiece(around index: Int) -> (piece: Int, offset: Int)? {
        var start = 0
        for (piece, value) in pieces.enumerated() {
            let count = value.count
            if case .slots = value, index >= start, index <= start + count { return (piece, index - start) }
            if index < start + count { return nil }
            start += count
        }
        return nil
    }

    /// The piece holding `index` and the offset in it.
    private func locate(_ index: Int) -> (piece: Int, offset: Int) {
        var start = 0
        for (piece, value) in pieces.enumerated() {
            let count = value.count
            if index < start + count { return (piece, index - start) }
            start += count
        }
        preconditionFailure("row index \(index) out of range")
    }

    /// Splits the pieces so that one starts at `index` (`0...count`); returns that piece's index
    /// (`pieces.count` at the end).
    private mutating func split(at index: Int) -> Int {
        var start = 0
        for (piece, value) in pieces.enumerated() {
            let count = value.count
            if index == start { return piece }
            if index < start + count {
                let offset = index - start
                switch value {
                case .run(let section, let rows):
                    pieces[piece] = .run(section: section, rows: rows.lowerBound..<rows.lowerBound + offset)
                    pieces.insert(.run(section: section, rows: rows.lowerBound + offset..<rows.upperBound), at: piece + 1)
                case .slots(let slots):
                    var head = ChunkedArray<RowSlot>(), tail = ChunkedArray<RowSlot>()
                    head.append(contentsOf: slots, range: 0..<offset)
                    tail.append(contentsOf: slots, range: offset..<slots.count)
                    pieces[piece] = .slots(head)
                    pieces.insert(.slots(tail), at: piece + 1)
                }
                return piece + 1
            }
            start += count
        }
        return pieces.count
    }

    /// Joins the slots piece at `piece` with slots pieces next to it, and drops empty pieces.
    private mutating func mergeSlots(around piece: Int) {
        var index = max(0, piece - 1)
        while index + 1 < pieces.count, index <= piece + 1 {
            if case .slots(var first) = pieces[index], case .slots(let second) = pieces[index + 1] {
                pieces[index] = .slots([])
                first.append(contentsOf: second, range: 0..<second.count)  // shares second's whole chunks
                pieces[index] = .slots(first)
                pieces.remove(at: index + 1)
            } else {
                index += 1
            }
        }
        pieces.removeAll { $0.count == 0 }
    }

    private mutating func compactIfNeeded() {
        guard pieces.count > Self.maxPieces else { return }
        var slots = ChunkedArray<RowSlot>()
        for piece in pieces {
            switch piece {
            case .run(let section, let rows):
                for row in rows { slots.append(.original(section: section, row: row)) }
            case .slots(let more):
                slots.append(contentsOf: more, range: 0..<more.count)
            }
        }
        pieces = [.slots(slots)]
    }
}
