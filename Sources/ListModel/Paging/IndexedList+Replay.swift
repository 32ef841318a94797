extension IndexedList {
    /// The list after a change that was committed elsewhere (by another server instance, read
    /// back from the change log): `patch` applied to the document, every row keeping its order
    /// key unless `orderKeys` names one for it (rows the change inserted, moved or rewrote get
    /// the keys their writer gave them, so every instance agrees on cursors).
    ///
    /// Applied like `applying(_:)`, at the cost of what the patch touches (plus a copy of the
    /// order keys when rows come or go). The committed document was valid where it was made,
    /// so no size limits apply here.
    /// - Throws: `JSONPatchError` or `ListDocumentError` when the patch does not fit this list
    ///   (it was made for another version), `IndexedListError` when a row ends up with no order
    ///   key or the keys do not increase in document order.
    public func replaying(_ patch: JSONPatch, orderKeys: [ByteKey: OrderKey]) throws -> IndexedList {
        let unlimited = ListDocument.Limits(maxRows: .max, maxSections: .max, maxColumns: .max)
        var workspace = PatchWorkspace(list: self)
        try workspace.apply(patch)
        guard let layout = try workspace.validated(limits: unlimited) else {
            return try replayingWhole(ListDocument(json: workspace.json(), limits: unlimited), orderKeys: orderKeys)
        }
        return try layout.replayed(from: self, orderKeys: orderKeys)
    }

    /// `replaying` for a change validated whole: every row's key looked up.
    private func replayingWhole(_ document: ListDocument, orderKeys: [ByteKey: OrderKey]) throws -> IndexedList {
        var keys: [OrderKey] = []
        keys.reserveCapacity(document.rowCount)
        for section in document.sections {
            for row in section.rows {
                guard let key = orderKeys[ByteKey(row.key)] ?? orderKeyMap[row.key] else {
                    throw IndexedListError(message: "row \(quotedKey(row.key)) has no order key")
                }
                keys.append(key)
            }
        }
        return try IndexedList(document: document, orderKeys: keys).carryingVersions(from: self)
    }
}

extension PatchedLayout {
    /// The list with the given keys for the rows they name and the old keys for the others;
    /// only the keys given and the keys around rows that are new or moved are checked.
    func replayed(from list: IndexedList, orderKeys given: [ByteKey: OrderKey]) throws(IndexedListError) -> IndexedList {
        for (key, orderKey) in given where !orderKey.isWellFormed || orderKey.rawValue.utf8.count > Cursor.maxOrderKeyBytes {
            throw IndexedListError(message: "order key \(quotedKey(orderKey.rawValue)) of row \(quotedKey(key.string)) is malformed")
        }
        // Old positions of old rows that are given new keys.
        var renamed: [(position: Int, key: OrderKey)] = []
        for (key, orderKey) in given {
            if let position = list.position(ofRow: key.string), list.orderKeys[position] != orderKey {
                renamed.append((position, orderKey))
            }
        }
        renamed.sort { $0.position < $1.position }
        let items = items(in: list)
        let total = items.reduce(0) { $0 + $1.count }
        let inPlace =
            renamed.isEmpty && total == list.rowCount
            && items.allSatisfy { $0.oldStart != nil }
            && zip(items, items.dropFirst()).allSatisfy { $0.oldStart! + $0.count == $1.oldStart! }
            && (items.first?.oldStart ?? 0) == 0
        var map = list.orderKeyMap
        let keys: ChunkedArray<OrderKey>
        var checked: [Int] = []  // positions whose key must sort after the one before
        if inPlace {
            keys = list.orderKeys
        } else {
            for key in list.removedKeys(in: self) { map.remove(key) }
            var built: [OrderKey] = []
            built.reserveCapacity(total)
            let sources = sections.flatMap(\.items)
            for (itemIndex, source) in sources.enumerated() {
                let item = items[itemIndex]
                checked.append(built.count)
                switch source {
                case .run(let origin, let rows):
                    let start = item.oldStart!
                    var next = renamed.firstIndex { $0.position >= start } ?? renamed.count
                    for (offset, row) in rows.enumerated() {
                        if next < renamed.count, renamed[next].position == start + offset {
                            checked.append(built.count)
                            checked.append(built.count + 1)
                            built.append(renamed[next].key)
                            map.set(list.document.sections[origin].rows[row].key, renamed[next].key)
                            next += 1
                        } else {
                            built.append(list.orderKeys[start + offset])
                        }
                    }
                case .touched(let row):
                    guard let key = given[ByteKey(row.key)] ?? list.orderKeyMap[row.key] else {
                        throw IndexedListError(message: "row \(quotedKey(row.key)) has no order key")
                    }
                    checked.append(built.count + 1)
                    built.append(key)
                    map.set(row.key, key)
                }
            }
            keys = ChunkedArray(built)
        }
        for position in checked where position > 0 && position < keys.count {
            guard keys[position - 1] < keys[position] else {
                throw IndexedListError(message: "order keys do not increase at position \(position)")
            }
        }
        return IndexedList(unchecked: document, orderKeys: keys, orderKeyMap: map)
    }
}

extension IndexedList {
    /// Keys of this list's rows that a patched layout no longer has.
    func removedKeys(in layout: PatchedLayout) -> [String] {
        layout.removedKeys(layout.items(in: self), list: self)
    }
}
