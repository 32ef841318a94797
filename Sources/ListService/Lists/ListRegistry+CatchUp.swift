import ListModel
import ListStore

extension ListRegistry {
    /// Brings one list up to what the store holds: the changes other instances committed are
    /// replayed from the change log and published in order, a list this instance did not hold
    /// is loaded, and one deleted elsewhere is deleted here (its subscribers are told). A list
    /// deleted and created again elsewhere is both: the old one deleted, the new one loaded.
    /// - Parameter version: the committed version heard of (a feed notification), if known;
    ///   nothing is read when the list is already there.
    /// - Throws: `StoreError` when the store cannot be read; `RegistryError.busy` when the
    ///   list's writers held it for `writeTimeout`.
    package func catchUp(id: String, to version: Int? = nil) throws {
        let deadline = ContinuousClock.now + writeTimeout
        while true {
            let entry = try slot(for: id, creating: false)
            let done = try entry.writer.withLock(
                before: deadline,
                orThrow: { _ in
                    busy(id: id, cause: "catching up: other writers of the list held it here")
                }
            ) { () -> Bool in
                if entry.removed.load(ordering: .acquiring) { return false }
                defer {
                    if !entry.removed.load(ordering: .acquiring), entry.current.withLock({ $0 == nil }) {
                        retire(entry, id: id)
                    }
                }
                _ = try catchUp(entry, id: id, committed: version)
                // Removed: the list held was deleted; the store may hold one created since.
                return !entry.removed.load(ordering: .acquiring)
            }
            if done { return }
        }
    }

    /// The store's change log of a list after `version` (for resuming `view=json` streams), nil
    /// when it no longer reaches back or the store cannot be read.
    package func changeLog(of id: String, after version: Int) -> [StoredChange]? {
        try? store.changes(of: id, after: version)
    }

    /// Whether this instance holds version `version` of list `id`, or knows it was deleted at
    /// or after it (cheap: for the change feed, which also reports this instance's own commits).
    package func holds(id: String, version: Int) -> Bool {
        if let held = snapshot(id: id)?.version, held >= version { return true }
        return tombstones.withLock { $0[id] }.map { $0 >= version } ?? false
    }

    /// Catches `entry` up with the store; under its writer lock.
    /// - Parameter committed: the store's version when known (a conflict or a notification);
    ///   nothing is read when the cache already holds it.
    /// - Returns: whether anything changed (a newer version, a deletion, or a newer tombstone).
    package func catchUp(_ entry: Entry, id: String, committed: Int?) throws -> Bool {
        let cached = entry.current.withLock { $0 }
        if let cached, let committed, committed <= cached.version { return false }
        if let cached, let changes = try store.changes(of: id, after: cached.version) {
            var current = cached
            for change in changes where change.version > current.version {
                guard change.version == current.version + 1, let step = try? replay(change, onto: current) else { break }
                // The rows it touched, for live views: from the patch and the logged order keys.
                let touched = ListChange.touchedRows(of: step.patch, in: current.document)
                    .map { $0 + change.orderKeys.map(\.rowKey) }
                accept(ListChange(id: id, old: current, new: step.list, patch: step.patch, touchedRowKeys: touched), into: entry)
                current = step.list
            }
            if current.version >= committed ?? 0, current.version == changes.last?.version ?? cached.version {
                return current.version > cached.version
            }
        }
        return try reload(entry, id: id, committed: committed)
    }

    /// The list after a logged change, and the change's patch.
    private func replay(_ change: StoredChange, onto current: ListSnapshot) throws -> (list: ListSnapshot, patch: JSONPatch) {
        let patch = try JSONPatch(parsing: change.patch)
        var orderKeys: [ByteKey: OrderKey] = [:]
        for key in change.orderKeys { orderKeys[ByteKey(key.rowKey)] = OrderKey(rawValue: key.orderKey) }
        // The rows the change stored are the rows it changed: they take its version, as they did
        // on the instance that made it.
        let list = try current.list.replaying(patch, orderKeys: orderKeys)
            .stampingVersions(change.orderKeys.lazy.map(\.rowKey), version: change.version)
        return (ListSnapshot(id: current.id, version: change.version, list: list), patch)
    }

    /// Reads the whole list again when the change log does not reach back to the cached
    /// version (or cannot be replayed): a newer version replaces the cached one (subscribers
    /// get one patch, the diff), none means the list was deleted, and one created after a
    /// deletion newer than the cached version means the cached list was deleted (its
    /// subscribers are told so, not patched into another list; the caller loads the new one).
    private func reload(_ entry: Entry, id: String, committed: Int?) throws -> Bool {
        let cached = entry.current.withLock { $0 }
        guard let stored = try store.load(id: id) else {
            if let cached {
                accept(
                    ListChange(id: id, old: cached, new: nil, patch: JSONPatch(operations: [])), into: entry,
                    deletedAt: max(committed ?? 0, cached.version + 1))
                return true
            }
            guard let committed else { return false }
            return tombstones.withLock { tombstones in
                guard committed > tombstones[id] ?? 0 else { return false }
                tombstones[id] = committed
                return true
            }
        }
        if let cached, let deletedAt = stored.deletedAt, deletedAt > cached.version {
            accept(
                ListChange(id: id, old: cached, new: nil, patch: JSONPatch(operations: [])), into: entry,
                deletedAt: deletedAt)
            return true
        }
        let snapshot = try StoredListCoding.snapshot(from: stored)
        if let cached, snapshot.version <= cached.version { return false }
        let patch = cached.map { JSONPatch(from: $0.document, to: snapshot.document) } ?? JSONPatch(operations: [])
        accept(ListChange(id: id, old: cached, new: snapshot, patch: patch), into: entry)
        return true
    }

    /// The lists whose committed version differs from the cache's, with that version (for a
    /// list deleted elsewhere, its deletion's): the periodic reconciliation that makes up for
    /// missed notifications. Also learns the deletions of lists this instance never held.
    package func outdated(comparedWith stored: StoredVersions) -> [(id: String, version: Int)] {
        let held = versions()
        var outdated: [(id: String, version: Int)] = []
        for (id, version) in stored.lists where version > held[id] ?? 0 { outdated.append((id, version)) }
        for (id, version) in held where stored.lists[id] == nil {
            // No tombstone newer than the cache: the list was created here after the store was read.
            if let deletedAt = stored.tombstones[id], deletedAt > version { outdated.append((id, deletedAt)) }
        }
        tombstones.withLock { tombstones in
            for (id, version) in stored.tombstones where held[id] == nil && version > tombstones[id] ?? 0 {
                tombstones[id] = version
            }
        }
        return outdated
    }
}
