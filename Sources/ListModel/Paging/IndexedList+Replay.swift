extension IndexedList {
    /// The list after a change that was committed elsewhere (by another server instance, read
    /// back from the change log): `patch` applied to the document, every row keeping its order
    /// key unless `orderKeys` names one for it (rows the change inserted, moved or rewrote get
    /// the keys their writer gave them, so every instance agrees on cursors).
    ///
    /// The committed document was valid where it was made, so no size limits apply here.
    /// - Throws: `JSONPatchError` or `ListDocumentError` when the patch does not fit this list
    ///   (it was made for another version), `IndexedListError` when a row ends up with no order
    ///   key or the keys do not increase in document order.
    public func replaying(_ patch: JSONPatch, orderKeys: [String: OrderKey]) throws -> IndexedList {
        let unlimited = ListDocument.Limits(maxRows: .max, maxSections: .max, maxColumns: .max)
        let document = try ListDocument(json: patch.apply(to: document.json), limits: unlimited)
        var keys: [OrderKey] = []
        keys.reserveCapacity(document.rowCount)
        for section in document.sections {
            for row in section.rows {
                guard let key = orderKeys[row.key] ?? orderKeyMap[row.key] else {
                    throw IndexedListError(message: "row \(quotedKey(row.key)) has no order key")
                }
                keys.append(key)
            }
        }
        return try IndexedList(document: document, orderKeys: keys)
    }
}
