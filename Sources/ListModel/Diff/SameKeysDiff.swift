// The diff of two documents whose sections hold the same rows in the same order (the common
// PUT: a few rows edited in place), in one pass.

/// The content changes between two documents with the same section keys in the same order
/// (each key once) and, section by section, the same row keys in the same order.
///
/// The keyed diff (`KeyedListDiff`) of such documents removes, adds and moves nothing: every
/// section and row is kept and an anchor, so its patch is phase 5's content operations alone.
/// This writes exactly those, in the same order, without matching keys by hash, laying out
/// slots or finding longest increasing runs: one pass over the rows, comparing each row's key
/// and then its bytes (`RowChangeWriter.appendIfChanged`).
enum SameKeysDiff {
    /// The operations from `old` to `new`, or nil when their keys differ in sequence (then the
    /// keyed diff applies).
    static func writer(from old: ListDocument, to new: ListDocument) -> PatchWriter? {
        guard old.sections.count == new.sections.count else { return nil }
        // Section keys match as the keyed diff matches them (by bytes); a repeated key (an
        // invalid document) matches only once there, so it takes the keyed path.
        var sectionKeys = Set<ByteKey>(minimumCapacity: new.sections.count)
        for (before, after) in zip(old.sections, new.sections) {
            guard before.rows.count == after.rows.count, utf8Equal(before.key, after.key),
                sectionKeys.insert(ByteKey(after.key)).inserted
            else { return nil }
        }
        var writer = PatchWriter()
        for index in new.sections.indices {
            writer.appendSectionChanges(from: old.sections[index], to: new.sections[index], at: index)
        }
        var rowChanges = RowChangeWriter()
        let columns = new.columns
        do {
            for section in new.sections.indices {
                let oldRows = old.sections[section].rows
                var row = 0
                try new.sections[section].rows.forEachUnsafeElement(in: 0..<oldRows.count) { after in
                    try oldRows.withUnsafeElement(at: row) { before in
                        // Row keys match byte for byte, as `KeyedMatch.matchRows` compares them.
                        guard utf8Equal(before.pointee.key, after.pointee.key) else { throw KeysDiffer() }
                        rowChanges.appendIfChanged(
                            from: before, to: after, section: section, row: row, columns: columns, into: &writer)
                    }
                    row += 1
                }
            }
        } catch {
            return nil
        }
        writer.appendListChanges(from: old, to: new)
        return writer
    }

    /// Ends the pass at the first row whose key differs.
    private struct KeysDiffer: Error {}
}
