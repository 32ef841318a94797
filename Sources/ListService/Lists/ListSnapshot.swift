import ListModel

/// One list at one version: immutable, shared freely between readers.
package struct ListSnapshot: Sendable {
    package let id: String
    package let version: Int
    /// The document with its rows' order keys.
    package let list: IndexedList
    /// Bytes computed from this version, shared by every reader of it.
    package let cache = SnapshotCache()

    package var document: ListDocument { list.document }

    /// The document's canonical JSON, serialized once per version.
    package var documentJSON: [UInt8] { cache.documentJSON { document.json.serialized() } }
}

/// One committed change of a list (this instance's write, or another instance's read back from
/// the store), handed on in version order: the registry's cache, then the live hub.
package struct ListChange: Sendable {
    package let id: String
    /// The list before the change; nil when the change created it (or the instance first saw it).
    package let old: ListSnapshot?
    /// The list after the change; nil when the change deleted it.
    package let new: ListSnapshot?
    /// The `view=json` patch from `old` to `new`; empty for a deletion, and not used when `old`
    /// is nil (subscribers then get the whole document).
    package let patch: JSONPatch
    /// The keys of the rows the change wrote, inserted, moved or removed, when it knows them (a
    /// keyed row edit); nil otherwise (a whole-document write, a change read back from the store):
    /// live views then rebuild instead of updating from these rows.
    package let touchedRowKeys: [String]?

    package init(id: String, old: ListSnapshot?, new: ListSnapshot?, patch: JSONPatch, touchedRowKeys: [String]? = nil) {
        self.id = id
        self.old = old
        self.new = new
        self.patch = patch
        self.touchedRowKeys = touchedRowKeys
    }

    /// This update followed by `next` as one change (their patches one after the other), or nil
    /// unless both are updates and `next` starts where this one ends.
    package func merged(with next: ListChange) -> ListChange? {
        guard let old, let new, let nextOld = next.old, let nextNew = next.new, nextOld.version == new.version else {
            return nil
        }
        let touched = touchedRowKeys.flatMap { mine in next.touchedRowKeys.map { mine + $0 } }
        return ListChange(
            id: id, old: old, new: nextNew, patch: JSONPatch(operations: patch.operations + next.patch.operations),
            touchedRowKeys: touched)
    }
}
