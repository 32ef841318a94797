// Validating a patched workspace as `ListDocument(json:)` would validate the whole result,
// with the same first error, while reading only what the patch touched: untouched rows were
// valid and still are (the columns' keys and kinds are unchanged, else the caller goes the
// whole way); what they can still take part in is a duplicate key or the row limit, which
// is checked per run of rows.

extension PatchWorkspace {
    /// The validated result, or nil when the columns' keys or kinds changed (every row must
    /// then be read again: validate `json()` whole instead).
    func validated(limits: ListDocument.Limits) throws(ListDocumentError) -> PatchedLayout? {
        var reader = DocumentReader(limits: limits)
        guard whole == nil else { return nil }
        var (document, sectionsValue) = try reader.header(members)
        guard document.columns.count == oldColumns.count,
            zip(document.columns, oldColumns).allSatisfy({ utf8Equal($0.key, $1.key) && $0.kind == $1.kind })
        else { return nil }
        let slots: [SectionSlot]
        if let sections {
            slots = sections
        } else if let sectionsValue {
            guard case .array(let elements) = sectionsValue else {
                throw reader.typeMismatch("an array of sections", sectionsValue).prefixed(["sections"])
            }
            slots = elements.map(SectionSlot.json)
        } else {
            slots = []
        }
        guard slots.count <= limits.maxSections else {
            throw ListDocumentError(
                pointer: JSONPointer(tokens: ["sections"]),
                message: "must hold at most \(limits.maxSections) sections, got \(slots.count)")
        }
        var walk = ValidationWalk(workspace: self, slots: slots, reader: reader)
        var sources: [PatchedLayout.SectionSource] = []
        sources.reserveCapacity(slots.count)
        document.sections.reserveCapacity(slots.count)
        var seen: [ByteKey: Int] = [:]
        for (index, slot) in slots.enumerated() {
            let (section, source) = try walk.section(slot, at: index)
            if let first = seen.updateValue(index, forKey: ByteKey(section.key)) {
                throw ListDocumentError(
                    pointer: JSONPointer(tokens: ["sections", String(index), "key"]),
                    message: duplicateSectionKeyMessage(section.key, firstAt: first))
            }
            document.sections.append(section)
            sources.append(source)
        }
        return PatchedLayout(document: document, sections: sources)
    }
}

/// The state of one validation: the reader (row count, keys seen) and the duplicates ahead.
private struct ValidationWalk {
    let workspace: PatchWorkspace
    var reader: DocumentReader
    /// Where each run of untouched old rows now lies: old section → (rows, new section, first row).
    var runs: [Int: [(rows: Range<Int>, section: Int, start: Int)]] = [:]
    /// The first place ahead where an untouched row repeats a key read already, and that key.
    var duplicateAhead: (location: (section: Int, row: Int), key: String)?

    init(workspace: PatchWorkspace, slots: [PatchWorkspace.SectionSlot], reader: DocumentReader) {
        self.workspace = workspace
        self.reader = reader
        for (index, slot) in slots.enumerated() {
            switch slot {
            case .original(let origin):
                runs[origin, default: []].append((0..<workspace.list.document.sections[origin].rows.count, index, 0))
            case .edited(let section):
                guard let rows = section.rows else { continue }
                var start = 0
                for piece in rows.pieces {
                    if case .run(let origin, let range) = piece { runs[origin, default: []].append((range, index, start)) }
                    start += piece.count
                }
            case .json:
                continue
            }
        }
    }

    var document: ListDocument { workspace.list.document }

    /// Validates section slot `index`; returns the section and where its rows came from.
    mutating func section(_ slot: PatchWorkspace.SectionSlot, at index: Int) throws(ListDocumentError)
        -> (Section, PatchedLayout.SectionSource)
    {
        do {
            switch slot {
            case .original(let origin):
                let old = document.sections[origin]
                let items: [PatchedLayout.RowSource] = old.rows.isEmpty ? [] : [.run(section: origin, rows: old.rows.indices)]
                try skipRun(origin, old.rows.indices, section: index, row: 0)
                return (old, .init(origin: origin, untouched: true, items: items))
            case .edited(let edited):
                var (section, elements) = try reader.sectionHeader(.object(edited.members))
                guard let rows = edited.rows else {
                    let items = try readRows(elements, section: index, into: &section)
                    return (section, .init(origin: edited.origin, untouched: false, items: items))
                }
                let items = try readRows(rows, section: index, into: &section)
                return (section, .init(origin: edited.origin, untouched: false, items: items))
            case .json(let value):
                var (section, elements) = try reader.sectionHeader(value)
                let items = try readRows(elements, section: index, into: &section)
                return (section, .init(origin: nil, untouched: false, items: items))
            }
        } catch {
            throw error.prefixed(["sections", String(index)])
        }
    }

    /// Reads rows given as JSON (all new to the list's structure).
    mutating func readRows(_ elements: [JSONValue], section: Int, into target: inout Section) throws(ListDocumentError)
        -> [PatchedLayout.RowSource]
    {
        target.rows.reserveCapacity(elements.count)
        var items: [PatchedLayout.RowSource] = []
        items.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let row = try readRow(element, section: section, row: index)
            target.rows.append(row)
            items.append(.touched(row))
        }
        return items
    }

    /// Reads the tracked rows of an old section: runs are checked for the limit and the
    /// duplicates ahead only; moved old rows for duplicates; the rest read as JSON.
    mutating func readRows(_ rows: WorkingRows, section: Int, into target: inout Section) throws(ListDocumentError)
        -> [PatchedLayout.RowSource]
    {
        target.rows.reserveCapacity(rows.count)
        var items: [PatchedLayout.RowSource] = []
        var index = 0
        for piece in rows.pieces {
            switch piece {
            case .run(let origin, let range):
                try skipRun(origin, range, section: section, row: index)
                target.rows.append(contentsOf: document.sections[origin].rows, range: range)
                appendRun(origin, range, to: &items)
                index += range.count
            case .slots(let slots):
                for slot in slots {
                    switch slot {
                    case .original(let origin, let row):
                        let old = document.sections[origin].rows[row]
                        try count(old.key, section: section, row: index)
                        target.rows.append(old)
                        appendRun(origin, row..<row + 1, to: &items)
                    case .json(let value):
                        let row = try readRow(value, section: section, row: index)
                        target.rows.append(row)
                        items.append(.touched(row))
                    }
                    index += 1
                }
            }
        }
        return items
    }

    /// Adds old rows to `items`, joining them to a run they continue (rows put back in order
    /// one by one, e.g. after `WorkingRows` compacted its pieces, are a run again).
    func appendRun(_ origin: Int, _ range: Range<Int>, to items: inout [PatchedLayout.RowSource]) {
        if case .run(let section, let rows)? = items.last, section == origin, rows.upperBound == range.lowerBound {
            items[items.count - 1] = .run(section: origin, rows: rows.lowerBound..<range.upperBound)
        } else {
            items.append(.run(section: origin, rows: range))
        }
    }

    /// Reads one row given as JSON, as the reader does, then checks its key against the
    /// untouched rows (before it: the duplicate is here; after it: it is there).
    mutating func readRow(_ value: JSONValue, section: Int, row: Int) throws(ListDocumentError) -> Row {
        let read: Row
        do {
            read = try reader.readRow(value, section: section, index: row)
        } catch {
            throw error.prefixed(["rows", String(row)])
        }
        if let place = untouchedPlace(ofRow: read.key) {
            if before(place, (section, row)) {
                throw ListDocumentError(
                    pointer: JSONPointer(tokens: ["rows", String(row), "key"]),
                    message: duplicateRowKeyMessage(read.key, firstAt: place))
            }
            if duplicateAhead == nil || before(place, duplicateAhead!.location) { duplicateAhead = (place, read.key) }
        }
        return read
    }

    /// Counts an untouched old row put somewhere else, checking the limit and its key.
    mutating func count(_ key: String, section: Int, row: Int) throws(ListDocumentError) {
        reader.rowCount += 1
        guard reader.rowCount <= reader.limits.maxRows else {
            throw ListDocumentError(pointer: JSONPointer(tokens: ["rows", String(row)]), message: rowLimitMessage)
        }
        if let first = reader.rowPlaces.updateValue((section, row), forKey: key) {
            throw ListDocumentError(
                pointer: JSONPointer(tokens: ["rows", String(row), "key"]),
                message: duplicateRowKeyMessage(key, firstAt: first))
        }
    }

    /// Counts a run of untouched old rows now at `row` of `section`: the first error in it, if
    /// any, is the row limit being passed or a key read before (`duplicateAhead`).
    mutating func skipRun(_ origin: Int, _ range: Range<Int>, section: Int, row: Int) throws(ListDocumentError) {
        let end = row + range.count
        let overLimit = reader.rowCount + range.count > reader.limits.maxRows ? row + reader.limits.maxRows - reader.rowCount : nil
        var duplicate: Int?
        if let ahead = duplicateAhead, ahead.location.section == section, ahead.location.row < end {
            duplicate = ahead.location.row
        }
        if let overLimit, duplicate.map({ overLimit <= $0 }) ?? true {
            throw ListDocumentError(pointer: JSONPointer(tokens: ["rows", String(overLimit)]), message: rowLimitMessage)
        }
        if let duplicate, let key = duplicateAhead?.key {
            let first = reader.rowPlaces[key]!
            throw ListDocumentError(
                pointer: JSONPointer(tokens: ["rows", String(duplicate), "key"]),
                message: duplicateRowKeyMessage(key, firstAt: first))
        }
        reader.rowCount += range.count
    }

    var rowLimitMessage: String { "the list may hold at most \(reader.limits.maxRows) rows" }

    /// Where the untouched old row with this key now lies, if it is in a run.
    func untouchedPlace(ofRow key: String) -> (section: Int, row: Int)? {
        guard let position = workspace.list.position(ofRow: key) else { return nil }
        let (origin, row) = workspace.list.location(ofPosition: position)
        guard let placed = runs[origin] else { return nil }
        for run in placed where run.rows.contains(row) {
            return (run.section, run.start + row - run.rows.lowerBound)
        }
        return nil
    }
}
