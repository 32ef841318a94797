extension JSONPatch {
    /// The minimal keyed patch from `old` to `new`: applied in order to `old.json` by any
    /// RFC 6902 implementation, it yields `new.json` (up to object member order).
    ///
    /// Sections match by key, rows by key across the whole list. Gone items are removed;
    /// kept items off a longest increasing run of old positions move, one `move` each (the
    /// fewest moves possible; a row changing section is one `move`); new items are added
    /// whole; changed content gets `replace`/`add`/`remove` on the members that changed, or one
    /// `replace` of the row when that is smaller. When the patch would be larger than the new
    /// document, it is a single `replace` of the root instead. O(n log n) in rows.
    ///
    /// When both documents hold the same keys in the same order (a PUT that edits rows in
    /// place), the same patch is found in one pass over the rows (`SameKeysDiff`).
    public init(from old: ListDocument, to new: ListDocument) {
        // Against `[{"op":"replace","path":"","value":DOCUMENT}]`.
        let rootOverhead = PatchWriter.valueOperationSize(op: "replace", path: OperationPath(pointer: .root, size: 2), valueSize: 0) + 2
        if let writer = SameKeysDiff.writer(from: old, to: new) {
            let rows = new.sections.reduce(0) { $0 + $1.rows.count }
            let exceeds = KeyedListDiff.exceedsDocument(
                writer, new: new, keptRows: rows, overhead: rootOverhead, newRowsLowerBound: { 0 }, newRowsSize: { 0 })
            self.init(operations: exceeds ? [.replace(path: .root, value: new.json)] : writer.operations)
        } else {
            self.init(keyedFrom: old, to: new)
        }
    }

    /// The same patch by the keyed diff alone (`KeyedListDiff`), whatever the documents' keys.
    init(keyedFrom old: ListDocument, to new: ListDocument) {
        let rootOverhead = PatchWriter.valueOperationSize(op: "replace", path: OperationPath(pointer: .root, size: 2), valueSize: 0) + 2
        var diff = KeyedListDiff(old: old, new: new)
        let writer = diff.run()
        if diff.exceedsDocument(writer, overhead: rootOverhead) {
            self.init(operations: [.replace(path: .root, value: new.json)])
        } else {
            self.init(operations: writer.operations)
        }
    }
}
