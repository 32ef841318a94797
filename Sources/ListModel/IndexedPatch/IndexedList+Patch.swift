extension IndexedList {
    /// Applies an RFC 6902 patch to the list: the same result, and the same first error, as
    /// `ListDocument(json: patch.apply(to: document.json), limits: limits)`, at the cost of what
    /// the patch touches.
    ///
    /// Each operation is followed through the list's structure (document, sections, section,
    /// rows, row) and applied there; only the rows it reaches are validated; order keys change
    /// only for rows inserted or moved; the patch returned is the canonical one (it takes the
    /// old document's canonical JSON to the new one's) and the edit names the rows the store
    /// must write and delete. A patch that changes a column's key or kind, or replaces the whole
    /// document, is validated whole (O(n)), as such a change touches every row.
    ///
    /// - Throws: `JSONPatchError` (an operation that does not apply, HTTP 409) or
    ///   `ListDocumentError` (the result is not a valid list, HTTP 422).
    public func applying(_ patch: JSONPatch, limits: ListDocument.Limits = ListDocument.Limits()) throws -> IndexedRowEdit {
        try applying(patch, limits: limits, maxKeyLength: Cursor.maxOrderKeyBytes)
    }

    func applying(_ patch: JSONPatch, limits: ListDocument.Limits, maxKeyLength: Int) throws -> IndexedRowEdit {
        var workspace = PatchWorkspace(list: self)
        try workspace.apply(patch)
        guard let layout = try workspace.validated(limits: limits) else {
            let document = try ListDocument(json: workspace.json(), limits: limits)
            return wholeEdit(to: document, maxKeyLength: maxKeyLength)
        }
        let livePatch = layout.livePatch(from: self)
        guard let keys = layout.keys(from: self, maxKeyLength: maxKeyLength) else {
            // A new key would be too long: every row is keyed afresh, and so written again.
            let list = IndexedList(document: layout.document)
            return IndexedRowEdit(
                list: list, patch: livePatch, writtenRowKeys: list.rowKeys,
                removedRowKeys: removedKeys(keeping: list))
        }
        let list = IndexedList(unchecked: layout.document, orderKeys: keys.orderKeys, orderKeyMap: keys.map)
        return IndexedRowEdit(list: list, patch: livePatch, writtenRowKeys: keys.written, removedRowKeys: keys.removed)
    }

    /// The edit to a new version of the whole document: a diff and a walk over every row.
    func wholeEdit(to document: ListDocument, maxKeyLength: Int) -> IndexedRowEdit {
        let list = updated(to: document, maxKeyLength: maxKeyLength)
        let patch = JSONPatch(from: self.document, to: document)
        let sameColumns = self.document.columns == document.columns
        var written: [String] = []
        var position = 0
        for section in document.sections {
            for row in section.rows {
                defer { position += 1 }
                if sameColumns, let before = self.position(ofRow: row.key), orderKeys[before] == list.orderKeys[position] {
                    let (oldSection, oldRow) = location(ofPosition: before)
                    let old = self.document.sections[oldSection]
                    if utf8Equal(old.key, section.key), old.rows[oldRow] == row { continue }
                }
                written.append(row.key)
            }
        }
        return IndexedRowEdit(list: list, patch: patch, writtenRowKeys: written, removedRowKeys: removedKeys(keeping: list))
    }

    /// The keys of this list's rows that `new` does not have.
    func removedKeys(keeping new: IndexedList) -> [String] {
        var removed: [String] = []
        for section in document.sections {
            for row in section.rows where new.orderKey(ofRow: row.key) == nil { removed.append(row.key) }
        }
        return removed
    }
}
