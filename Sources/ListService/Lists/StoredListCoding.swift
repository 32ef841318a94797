import ListModel
import ListStore

/// Converts between snapshots and the store's row-by-row form.
///
/// A stored list is its canonical document with every section's rows emptied (`meta`) plus
/// one record per row: its section key, order key and canonical JSON.
package enum StoredListCoding {
    /// Why a stored list could not be read back.
    package struct CorruptList: Error, CustomStringConvertible {
        package let id: String
        package let reason: String
        package var description: String { "stored list \(id) cannot be read: \(reason)" }
    }

    /// The store write that takes a list from `old` to `new`: only rows that are new, changed,
    /// moved or re-keyed are written; rows that are gone are deleted.
    ///
    /// Every row is looked at once, but cheaply: sections are walked side by side, so a row that
    /// stayed at its place is recognised by comparing it with the old row at the same index
    /// (unchanged rows share storage, so the comparison is quick); only rows that moved are
    /// looked up by key. Deletions are searched for only when some old row was not met.
    package static func write(from old: ListSnapshot?, to new: ListSnapshot, patch: JSONPatch) -> StoreWrite {
        let columns = new.document.columns
        let sameColumns = old?.document.columns == columns
        let oldSections = old?.document.sections ?? []
        var oldStarts: [Int] = []
        oldStarts.reserveCapacity(oldSections.count)
        var start = 0
        for section in oldSections {
            oldStarts.append(start)
            start += section.rows.count
        }
        var oldSectionIndex: [ByteKey: Int]?
        var upserted: [StoredRow] = []
        var kept = 0
        var position = 0
        for (sectionIndex, section) in new.document.sections.enumerated() {
            let oldIndex: Int?
            if sectionIndex < oldSections.count, utf8Equal(oldSections[sectionIndex].key, section.key) {
                oldIndex = sectionIndex
            } else {
                if oldSectionIndex == nil {
                    oldSectionIndex = Dictionary(
                        oldSections.enumerated().map { (ByteKey($1.key), $0) }, uniquingKeysWith: { first, _ in first })
                }
                oldIndex = oldSectionIndex?[ByteKey(section.key)]
            }
            for (rowIndex, row) in section.rows.enumerated() {
                let orderKey = new.list.orderKeys[position]
                position += 1
                if let old {
                    if let oldIndex, rowIndex < oldSections[oldIndex].rows.count,
                        utf8Equal(oldSections[oldIndex].rows[rowIndex].key, row.key)
                    {
                        kept += 1
                        if sameColumns, old.list.orderKeys[oldStarts[oldIndex] + rowIndex] == orderKey,
                            oldSections[oldIndex].rows[rowIndex] == row
                        {
                            continue
                        }
                    } else if let before = old.list.position(ofRow: row.key) {
                        kept += 1
                        if sameColumns, old.list.orderKeys[before] == orderKey,
                            utf8Equal(old.list.sectionKey(atPosition: before), section.key), old.list.row(atPosition: before) == row
                        {
                            continue
                        }
                    }
                }
                upserted.append(
                    StoredRow(
                        key: row.key, section: section.key, orderKey: orderKey.rawValue,
                        body: row.canonicalJSONBytes(columns: columns)))
            }
        }
        var deleted: [String] = []
        if let old, kept < old.list.rowCount {
            for section in oldSections {
                for row in section.rows where new.list.orderKey(ofRow: row.key) == nil { deleted.append(row.key) }
            }
        }
        return StoreWrite(
            id: new.id, version: new.version, meta: meta(of: new.document).serialized(),
            upsertedRows: upserted, deletedRowKeys: deleted, patch: patch.json.serialized())
    }

    /// The store write of a keyed row edit: the rows it names, nothing else looked at.
    package static func write(to new: ListSnapshot, rowEdit: IndexedRowEdit) -> StoreWrite {
        let columns = new.document.columns
        let upserted = rowEdit.writtenRowKeys.map { key in
            let position = new.list.position(ofRow: key)!
            return StoredRow(
                key: key, section: new.list.sectionKey(atPosition: position),
                orderKey: new.list.orderKeys[position].rawValue,
                body: new.list.row(atPosition: position).canonicalJSONBytes(columns: columns))
        }
        return StoreWrite(
            id: new.id, version: new.version, meta: meta(of: new.document).serialized(),
            upsertedRows: upserted, deletedRowKeys: rowEdit.removedRowKeys, patch: rowEdit.patch.json.serialized())
    }

    /// The document's canonical JSON with every section's rows emptied.
    package static func meta(of document: ListDocument) -> JSONValue {
        var shell = document
        for index in shell.sections.indices { shell.sections[index].rows = [] }
        return shell.json
    }

    /// Rebuilds a snapshot from what the store holds, validating it like any input. Each row's
    /// JSON is read into the list as it comes (`ListDocument.Assembler`): no row's JSON tree
    /// outlives its row.
    package static func snapshot(from stored: StoredList) throws -> ListSnapshot {
        try snapshot(of: stored, rowCount: stored.rows.count) { row in for each in stored.rows { try row(each) } }
    }

    /// `snapshot(from:)` for a list whose rows (`rowCount` of them) `readRows` hands over one at a
    /// time, as a start reads them (`Store.forEachList`); `stored.rows` is not read. What does not
    /// decode throws `CorruptList`; what the store throws while reading comes out as it is.
    package static func snapshot(of stored: StoredList, rowCount: Int, readRows: StoredRowReader) throws -> ListSnapshot {
        let corrupt = { (error: any Error) -> any Error in error as? CorruptList ?? CorruptList(id: stored.id, reason: "\(error)") }
        var assembler: ListDocument.Assembler
        do {
            assembler = try ListDocument.Assembler(meta: try JSONValue(parsing: stored.meta), expectedRows: rowCount)
        } catch { throw corrupt(error) }
        // Rows come in order-key order, which is each section's order; the keys and versions are
        // kept per section and joined in the sections' order, as the document holds them. A row
        // stored before rows had versions (0) takes the list's version.
        var orderKeys = [[OrderKey]](repeating: [], count: assembler.sectionCount)
        var versions = [[Int]](repeating: [], count: assembler.sectionCount)
        do {
            try readRows { row in
                do {
                    guard let section = assembler.section(keyed: row.section) else {
                        throw CorruptList(id: stored.id, reason: "row \(row.key) names unknown section \(row.section)")
                    }
                    try assembler.append(try JSONValue(parsing: row.body), toSection: section)
                    orderKeys[section].append(OrderKey(rawValue: row.orderKey))
                    versions[section].append(row.version > 0 ? row.version : stored.version)
                } catch { throw RowFailure(error: error) }
            }
        } catch let failure as RowFailure { throw corrupt(failure.error) }
        do {
            let document = try assembler.finish()
            let list = try IndexedList(
                document: document, orderKeys: Array(orderKeys.joined()), versions: Array(versions.joined()))
            return ListSnapshot(id: stored.id, version: stored.version, list: list)
        } catch { throw corrupt(error) }
    }

    /// A stored row that did not decode, told apart from what the store's reader throws.
    private struct RowFailure: Error {
        let error: any Error
    }
}
