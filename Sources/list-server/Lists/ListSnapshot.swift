import ListModel

/// One list at one version: immutable, shared freely between readers.
struct ListSnapshot: Sendable {
    let id: String
    let version: Int
    /// The document with its rows' order keys.
    let list: IndexedList
    /// Bytes computed from this version, shared by every reader of it.
    let cache = SnapshotCache()

    var document: ListDocument { list.document }

    /// The document's canonical JSON, serialized once per version.
    var documentJSON: [UInt8] { cache.documentJSON { document.json.serialized() } }
}

/// What one accepted write did, published to subscribers in version order.
struct ListChange: Sendable {
    let id: String
    /// The list before the write; nil when the write created it.
    let old: ListSnapshot?
    /// The list after the write; nil when the write deleted it.
    let new: ListSnapshot?
    /// The `view=json` patch from `old` to `new` (empty for a deletion).
    let patch: JSONPatch
}
