// The published patch of a patched list: what changed, from where the sections and rows came
// from, in canonical paths and values (the old document's canonical JSON, patched, gives the
// new one's). Untouched runs of rows are never looked at; the cost is that of the touched rows.

extension PatchedLayout {
    /// The operations that take `list.document` to `document`.
    func livePatch(from list: IndexedList) -> JSONPatch {
        let old = list.document
        var writer = PatchWriter()
        writeMembers(from: old, into: &writer)
        // Old sections that stay, in an order that needs no section moves; the rest are
        // removed and added whole.
        let origins = sections.map { $0.origin ?? -1 }
        var retained = [Bool](repeating: false, count: sections.count)
        let withOrigin = origins.indices.filter { origins[$0] >= 0 }
        for index in longestIncreasingSubsequence(withOrigin.map { origins[$0] }) { retained[withOrigin[index]] = true }
        var stays = [Bool](repeating: false, count: old.sections.count)
        for index in sections.indices where retained[index] { stays[origins[index]] = true }
        for index in old.sections.indices.reversed() where !stays[index] {
            writer.remove(.section(index))
        }
        var rowWriter = RowChangeWriter()
        for (index, source) in sections.enumerated() {
            let section = document.sections[index]
            guard retained[index], let origin = source.origin else {
                writer.add(.section(index), section.json(columns: document.columns), valueSize: 0)
                continue
            }
            let before = old.sections[origin]
            writeSectionMembers(from: before, to: section, at: index, into: &writer)
            if !source.untouched {
                writeRows(of: source, origin: origin, at: index, list: list, into: &writer, rowWriter: &rowWriter)
            }
        }
        return JSONPatch(operations: writer.operations)
    }

    /// The list's own members other than `sections`.
    private func writeMembers(from old: ListDocument, into writer: inout PatchWriter) {
        if old.title != document.title || !utf8Equal(old.title, document.title) {
            writer.replace(.member("title"), .string(document.title), valueSize: 0)
        }
        for (index, (before, after)) in zip(old.columns, document.columns).enumerated() where !utf8Equal(before.title, after.title) {
            writer.replace(.member("columns").appending(String(index), "title"), .string(after.title), valueSize: 0)
        }
        func member(_ name: String, _ before: JSONValue?, _ after: JSONValue?) {
            switch (before, after) {
            case (nil, let value?): writer.add(.member(name), value, valueSize: 0)
            case (_?, nil): writer.remove(.member(name))
            case (let old?, let new?) where old != new: writer.replace(.member(name), new, valueSize: 0)
            default: break
            }
        }
        member("emptyText", old.emptyText.map(JSONValue.string), document.emptyText.map(JSONValue.string))
        member("state", old.state?.json, document.state?.json)
        member("rowHeight", old.rowHeight.map(JSONValue.number), document.rowHeight.map(JSONValue.number))
        member(
            "estimatedRowHeight", old.estimatedRowHeight.map(JSONValue.number),
            document.estimatedRowHeight.map(JSONValue.number))
    }

    /// A kept section's own members.
    private func writeSectionMembers(from old: Section, to new: Section, at index: Int, into writer: inout PatchWriter) {
        let path = OperationPath.section(index)
        if !utf8Equal(old.key, new.key) { writer.replace(path.appending("key"), .string(new.key), valueSize: 0) }
        if old.header != new.header || !optionalUTF8Equal(old.header, new.header) {
            writer.replace(path.appending("header"), new.header.map(JSONValue.string) ?? .null, valueSize: 0)
        }
        if old.footer != new.footer || !optionalUTF8Equal(old.footer, new.footer) {
            writer.replace(path.appending("footer"), new.footer.map(JSONValue.string) ?? .null, valueSize: 0)
        }
        if old.collapsible != new.collapsible { writer.replace(path.appending("collapsible"), .bool(new.collapsible), valueSize: 0) }
        if old.collapsed != new.collapsed { writer.replace(path.appending("collapsed"), .bool(new.collapsed), valueSize: 0) }
    }

    /// The rows of a kept section: its old rows that stay in order are anchors; between two
    /// anchors, old rows are removed and new ones added, except rows that keep their key and
    /// place there, which get the operations for what changed in them.
    private func writeRows(
        of source: SectionSource, origin: Int, at index: Int, list: IndexedList,
        into writer: inout PatchWriter, rowWriter: inout RowChangeWriter
    ) {
        let oldRows = list.document.sections[origin].rows
        let newRows = document.sections[index].rows
        // Anchors: runs of this section's own old rows, in an increasing order.
        var runStarts: [(item: Int, newStart: Int)] = []
        var newStart = 0
        for (item, row) in source.items.enumerated() {
            if case .run(let section, _) = row, section == origin { runStarts.append((item, newStart)) }
            newStart += row.count
        }
        let order = longestIncreasingSubsequence(
            runStarts.map { entry -> Int in
                guard case .run(_, let rows) = source.items[entry.item] else { return 0 }
                return rows.lowerBound
            })
        // (old range, new range) of each anchor, in order.
        var anchors: [(old: Range<Int>, new: Range<Int>)] = []
        for position in order {
            let entry = runStarts[position]
            guard case .run(_, let rows) = source.items[entry.item] else { continue }
            anchors.append((rows, entry.newStart..<entry.newStart + rows.count))
        }
        // Gaps between anchors, from the last to the first, so that the indexes of the rows
        // before a gap are still the old ones when its operations apply.
        var gapEnds = (old: oldRows.count, new: newRows.count)
        for anchor in ([(old: 0..<0, new: 0..<0)] + anchors).reversed() {
            let old = anchor.old.upperBound..<gapEnds.old
            let new = anchor.new.upperBound..<gapEnds.new
            writeGap(
                old: old, new: new, oldRows: oldRows, newRows: newRows, section: index,
                into: &writer, rowWriter: &rowWriter)
            gapEnds = (anchor.old.lowerBound, anchor.new.lowerBound)
        }
    }

    /// Old rows `old` become new rows `new`, at old index `old.lowerBound` of section `section`.
    private func writeGap(
        old: Range<Int>, new: Range<Int>, oldRows: ChunkedArray<Row>, newRows: ChunkedArray<Row>, section: Int,
        into writer: inout PatchWriter, rowWriter: inout RowChangeWriter
    ) {
        guard !old.isEmpty || !new.isEmpty else { return }
        var prefix = 0
        while prefix < min(old.count, new.count),
            utf8Equal(oldRows[old.lowerBound + prefix].key, newRows[new.lowerBound + prefix].key)
        { prefix += 1 }
        var suffix = 0
        while suffix < min(old.count, new.count) - prefix,
            utf8Equal(oldRows[old.upperBound - 1 - suffix].key, newRows[new.upperBound - 1 - suffix].key)
        { suffix += 1 }
        for offset in (0..<suffix).reversed() {
            let oldIndex = old.upperBound - 1 - offset
            rowWriter.append(
                from: oldRows[oldIndex], to: newRows[new.upperBound - 1 - offset], compareCells: true,
                section: section, row: oldIndex, columns: document.columns, into: &writer)
        }
        for oldIndex in (old.lowerBound + prefix..<old.upperBound - suffix).reversed() {
            writer.remove(.row(section, oldIndex))
        }
        for (offset, newIndex) in (new.lowerBound + prefix..<new.upperBound - suffix).enumerated() {
            writer.add(.row(section, old.lowerBound + prefix + offset), newRows[newIndex].json(columns: document.columns), valueSize: 0)
        }
        for offset in 0..<prefix {
            rowWriter.append(
                from: oldRows[old.lowerBound + offset], to: newRows[new.lowerBound + offset], compareCells: true,
                section: section, row: old.lowerBound + offset, columns: document.columns, into: &writer)
        }
    }
}
