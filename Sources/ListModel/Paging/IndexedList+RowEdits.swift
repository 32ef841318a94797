/// A keyed row edit made to an `IndexedList`: the list after it, the patch that takes the
/// old document to the new one, and the rows a store must write or delete.
///
/// Made by `replacingRow`, `insertingRows` and `removingRow`, which know what they change and
/// so need no diff: their cost is a lookup plus copies of the touched chunk of the section's
/// rows and (for an insert or removal) of the order keys, and of the chunk indexes.
public struct IndexedRowEdit: Sendable {
    /// The list after the edit.
    public let list: IndexedList
    /// Applied to the old document's JSON, gives `list.document.json`.
    public let patch: JSONPatch
    /// Keys of rows that are new or whose content changed (to write), in document order.
    public let writtenRowKeys: [String]
    /// Keys of rows that are gone (to delete).
    public let removedRowKeys: [String]
}

extension IndexedList {
    /// Replaces the row with `row.key` in place, keeping its section, position and order key.
    ///
    /// The patch is the one the keyed diff writes for a changed row: the changed cells, `href`
    /// and `style`, or one `replace` of the row when smaller; empty when nothing changed.
    public func replacingRow(_ row: Row) throws(ListEditError) -> IndexedRowEdit {
        guard let position = position(ofRow: row.key) else { throw .notFound("There is no row with key \(quotedKey(row.key)).") }
        let (section, index) = location(ofPosition: position)
        var newDocument = document
        let old = newDocument.sections[section].rows[index]
        newDocument.sections[section].rows[index] = row
        var writer = PatchWriter()
        var changes = RowChangeWriter()
        changes.append(
            from: old, to: row, compareCells: true, section: section, row: index,
            columns: document.columns, into: &writer)
        let list = IndexedList(unchecked: newDocument, orderKeys: orderKeys, orderKeyMap: orderKeyMap)
        return IndexedRowEdit(
            list: list, patch: JSONPatch(operations: writer.operations),
            writtenRowKeys: old == row ? [] : [row.key], removedRowKeys: [])
    }

    /// Removes the row with this key; the other rows keep their order keys.
    public func removingRow(key: String) throws(ListEditError) -> IndexedRowEdit {
        guard let position = position(ofRow: key) else { throw .notFound("There is no row with key \(quotedKey(key)).") }
        let (section, index) = location(ofPosition: position)
        var newDocument = document
        newDocument.sections[section].rows.remove(at: index)
        var keys = orderKeys
        keys.remove(at: position)
        var map = orderKeyMap
        map.remove(key)
        let list = IndexedList(unchecked: newDocument, orderKeys: keys, orderKeyMap: map)
        let patch = JSONPatch(operations: [.remove(path: OperationPath.row(section, index).pointer)])
        return IndexedRowEdit(list: list, patch: patch, writtenRowKeys: [], removedRowKeys: [key])
    }

    /// Inserts rows into the section with key `target` (the same rules and errors as
    /// `ListDocument.insertRows`). The new rows get order keys between their neighbours';
    /// no other row is renumbered, except in `updated(to:)`'s one case (keys grown too long
    /// after thousands of inserts at one spot), where the list is re-keyed as it does.
    public func insertingRows(
        _ newRows: [Row], inSection target: String,
        at insertion: RowInsertPosition = .end
    ) throws(ListEditError) -> IndexedRowEdit {
        try insertingRows(newRows, inSection: target, at: insertion, maxKeyLength: Cursor.maxOrderKeyBytes)
    }

    func insertingRows(
        _ newRows: [Row], inSection target: String, at insertion: RowInsertPosition,
        maxKeyLength: Int
    ) throws(ListEditError) -> IndexedRowEdit {
        guard let section = sectionIndexes[ByteKey(target)] else { throw .notFound("There is no section with key \(quotedKey(target)).") }
        var seen = Set<ByteKey>()
        for row in newRows {
            guard seen.insert(ByteKey(row.key)).inserted else { throw .invalid("row key \"\(row.key)\" appears twice in the request") }
            if let existing = self.position(ofRow: row.key) {
                throw .invalid("row key \"\(row.key)\" is already used in section \"\(sectionKey(atPosition: existing))\"")
            }
        }
        let index: Int
        switch insertion {
        case .end:
            index = document.sections[section].rows.count
        case .before(let anchor), .after(let anchor):
            guard let anchorPosition = self.position(ofRow: anchor),
                location(ofPosition: anchorPosition).section == section
            else {
                throw .notFound("There is no row with key \(quotedKey(anchor)) in section \(quotedKey(target)).")
            }
            let anchorIndex = anchorPosition - sectionStarts[section]
            if case .after = insertion { index = anchorIndex + 1 } else { index = anchorIndex }
        }
        var newDocument = document
        newDocument.sections[section].rows.insert(contentsOf: newRows, at: index)
        var operations: [JSONPatchOperation] = []
        operations.reserveCapacity(newRows.count)
        for (offset, row) in newRows.enumerated() {
            operations.append(.add(path: OperationPath.row(section, index + offset).pointer, value: row.json(columns: document.columns)))
        }
        let patch = JSONPatch(operations: operations)
        let written = newRows.map(\.key)

        let position = sectionStarts[section] + index
        let fresh = OrderKey.keys(
            between: position > 0 ? orderKeys[position - 1] : nil,
            position < orderKeys.count ? orderKeys[position] : nil, count: newRows.count)
        if fresh.contains(where: { $0.rawValue.utf8.count > maxKeyLength }) {
            // Every row is re-keyed: each must be written again with its new order key.
            let list = updated(to: newDocument, maxKeyLength: maxKeyLength)
            return IndexedRowEdit(list: list, patch: patch, writtenRowKeys: list.rowKeys, removedRowKeys: [])
        }
        var keys = orderKeys
        keys.insert(contentsOf: fresh, at: position)
        var map = orderKeyMap
        for (key, orderKey) in zip(written, fresh) { map.set(key, orderKey) }
        let list = IndexedList(unchecked: newDocument, orderKeys: keys, orderKeyMap: map)
        return IndexedRowEdit(list: list, patch: patch, writtenRowKeys: written, removedRowKeys: [])
    }
}

extension Array {
    /// A copy with `range` replaced by `new`, copied element by element in code specialised
    /// for the element: `remove(at:)`, `insert(contentsOf:at:)` or an element assignment on a
    /// shared array copy it through the runtime's generic per-element copy, about twice as slow
    /// (a million order keys: ~20 ms against ~10 ms).
    func replacing(_ range: Range<Int>, with new: [Element]) -> [Element] {
        var copy: [Element] = []
        copy.reserveCapacity(count - range.count + new.count)
        for index in 0..<range.lowerBound { copy.append(self[index]) }
        copy.append(contentsOf: new)
        for index in range.upperBound..<count { copy.append(self[index]) }
        return copy
    }
}

/// Where `movingRow` puts a row.
public enum RowMoveTarget: Sendable, Equatable {
    /// Just before the row with this key, in its section.
    case before(String)
    /// Just after the row with this key, in its section.
    case after(String)
    /// After the last row of the section with this key.
    case endOf(section: String)
}

extension IndexedList {
    /// Moves the row with this key, keeping its key and content: it is taken out and put back
    /// at `target` with a new order key between its new neighbours' (the only row written). The
    /// patch removes it and adds it again. Costs what a removal and an insertion cost.
    ///
    /// - Throws: `.notFound` for an unknown row, anchor or section; `.invalid` for a row moved
    ///   before or after itself.
    public func movingRow(key: String, to target: RowMoveTarget) throws(ListEditError) -> IndexedRowEdit {
        guard let position = position(ofRow: key) else { throw .notFound("There is no row with key \(quotedKey(key)).") }
        let row = self.row(atPosition: position)
        let section: String
        let insertion: RowInsertPosition
        switch target {
        case .before(let anchor), .after(let anchor):
            guard !utf8Equal(anchor, key) else { throw .invalid("A row cannot be moved before or after itself.") }
            guard let anchorPosition = self.position(ofRow: anchor) else {
                throw .notFound("There is no row with key \(quotedKey(anchor)).")
            }
            section = sectionKey(atPosition: anchorPosition)
            if case .before = target { insertion = .before(anchor) } else { insertion = .after(anchor) }
        case .endOf(let target):
            guard sectionIndexes[ByteKey(target)] != nil else { throw .notFound("There is no section with key \(quotedKey(target)).") }
            section = target
            insertion = .end
        }
        let removal = try removingRow(key: key)
        let inserted = try removal.list.insertingRows([row], inSection: section, at: insertion)
        return IndexedRowEdit(
            list: inserted.list, patch: JSONPatch(operations: removal.patch.operations + inserted.patch.operations),
            writtenRowKeys: inserted.writtenRowKeys, removedRowKeys: [])
    }
}
