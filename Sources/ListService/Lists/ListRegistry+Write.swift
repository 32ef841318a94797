import Foundation
import ListModel
import ListStore
import ServerSupport

extension ListRegistry {
    /// Applies one write. `edit` gets the current document (nil when the list does not exist
    /// and `mayCreate` is true) and returns the new one, or throws to refuse: then nothing changes.
    /// The patch for subscribers and the store's rows come from a diff of the whole list.
    /// `edit` may run more than once: again after catching up with another instance's commit.
    /// - Parameter precondition: the client's `If-Match` / `If-None-Match`, checked against
    ///   the committed version.
    @discardableResult
    package func write(
        id: String, precondition: WritePrecondition = .none, mayCreate: Bool = false,
        _ edit: (ListDocument?) throws -> ListDocument
    ) throws -> ListSnapshot {
        try apply(id: id, precondition: precondition, mayCreate: mayCreate) { old in
            let document = try edit(old?.document)
            guard let old else {
                return (IndexedList(document: document), JSONPatch(operations: [.replace(path: .root, value: document.json)]), nil)
            }
            return (old.list.updated(to: document), JSONPatch(from: old.document, to: document), nil)
        }
    }

    /// Applies a keyed row edit of an existing list: `edit` gets the current list and returns
    /// the edit it made, patch included, or throws to refuse. No diff is computed and the store
    /// writes only the rows the edit names, so the cost does not grow with the list.
    /// `edit` may run more than once, as for `write`.
    @discardableResult
    package func writeRows(
        id: String, precondition: WritePrecondition = .none,
        _ edit: (IndexedList) throws -> IndexedRowEdit
    ) throws -> ListSnapshot {
        try apply(id: id, precondition: precondition, mayCreate: false) { old in
            let made = try edit(old!.list)
            return (made.list, made.patch, made)
        }
    }

    /// The write both kinds share: precondition, version, store commit, publication.
    /// `compute` returns the new list, the patch from the old one, and for a row edit the edit.
    private func apply(
        id: String, precondition: WritePrecondition, mayCreate: Bool,
        _ compute: (ListSnapshot?) throws -> (list: IndexedList, patch: JSONPatch, rows: IndexedRowEdit?)
    ) throws -> ListSnapshot {
        try committing(id: id, creating: mayCreate) { entry, old, deadline in
            guard old != nil || mayCreate else { throw missing(id: id) }
            if let failure = precondition.failure(version: old?.version) {
                throw RegistryError.preconditionFailed(failure)
            }
            let (list, patch, rows) = try compute(old)
            let base = old?.version ?? tombstones.withLock { $0[id] } ?? 0
            let unstamped = ListSnapshot(id: id, version: base + 1, list: list)
            let write =
                rows.map { StoredListCoding.write(to: unstamped, rowEdit: $0) }
                ?? StoredListCoding.write(from: old, to: unstamped, patch: patch)
            // The rows the write stores are the rows it changed: they take its version.
            let new = ListSnapshot(
                id: id, version: base + 1,
                list: list.stampingVersions(write.upsertedRows.lazy.map(\.key), version: base + 1))
            try store.commit(write, deadline: deadline)
            accept(
                ListChange(
                    id: id, old: old, new: new, patch: patch,
                    touchedRowKeys: rows.map { $0.writtenRowKeys + $0.removedRowKeys }), into: entry)
            return new
        }
    }

    /// Deletes a list. Returns the last snapshot it had.
    @discardableResult
    package func delete(id: String, precondition: WritePrecondition = .none) throws -> ListSnapshot {
        try committing(id: id, creating: false) { entry, old, deadline in
            guard let old else { throw missing(id: id) }
            if let failure = precondition.failure(version: old.version) {
                throw RegistryError.preconditionFailed(failure)
            }
            try store.delete(id: id, version: old.version + 1, deadline: deadline)
            accept(
                ListChange(id: id, old: old, new: nil, patch: JSONPatch(operations: [])), into: entry,
                deletedAt: old.version + 1)
            return old
        }
    }

    /// Runs `attempt` under the list's writer lock with its current snapshot (nil: none) until
    /// it returns. When the store holds a newer version than the cache (another instance
    /// committed first: `VersionConflict`), the list is caught up and `attempt` runs again on
    /// it; a refusal (any other error but the store's own) is checked the same way once, so
    /// that `If-Match`, a failing patch test or a missing row are judged against the committed
    /// version, not a stale copy. A slot left empty is retired.
    ///
    /// The whole write has one deadline, `writeTimeout` from now: the wait for the writer lock
    /// (behind this list's other writers, in order) ends then, and `attempt` gets it for the
    /// store, whose waits for a connection and for locks end then too. Either way the write
    /// throws `RegistryError.busy` (503), having changed nothing. A write that finds
    /// `maxQueuedWriters` writes waiting already does not queue: `RegistryError.queueFull` (503).
    /// So a list held by a lock ties up at most that many handler threads, whatever comes.
    private func committing<T>(
        id: String, creating: Bool,
        _ attempt: (Entry, ListSnapshot?, ContinuousClock.Instant) throws -> T
    ) throws -> T {
        let deadline = ContinuousClock.now + writeTimeout
        do {
            return try committing(id: id, creating: creating, before: deadline, attempt)
        } catch let error as StoreError where error.kind == .busy {
            throw busy(id: id, cause: error.message)
        }
    }

    /// The answer to a write that waited `writeTimeout` for list `id`.
    func busy(id: String, cause: String) -> RegistryError {
        .busy(id: id, seconds: writeTimeout.seconds, cause: cause)
    }

    private func committing<T>(
        id: String, creating: Bool, before deadline: ContinuousClock.Instant,
        _ attempt: (Entry, ListSnapshot?, ContinuousClock.Instant) throws -> T
    ) throws -> T {
        var conflicts = 0
        while true {
            let entry = try slot(for: id, creating: creating)
            let result: T? = try entry.writer.withLock(
                before: deadline, unlessWaiting: maxQueuedWriters,
                orThrow: { outcome in
                    outcome == .queueFull
                        ? RegistryError.queueFull(id: id, waiting: maxQueuedWriters)
                        : busy(id: id, cause: "other writers of the list held it here (\(entry.writer.waiterCount) waiting)")
                }
            ) {
                defer {
                    if !entry.removed.load(ordering: .acquiring), entry.current.withLock({ $0 == nil }) {
                        retire(entry, id: id)
                    }
                }
                var consulted = false
                while !entry.removed.load(ordering: .acquiring) {
                    do {
                        return try attempt(entry, entry.current.withLock { $0 }, deadline)
                    } catch let conflict as VersionConflict {
                        conflicts += 1
                        guard conflicts < Self.maxConflicts else { throw RegistryError.contended(id: id) }
                        Self.backOff(afterConflicts: conflicts)
                        _ = try catchUp(entry, id: id, committed: conflict.stored)
                    } catch let error where Self.isRefusal(error) && !consulted {
                        consulted = true
                        guard try catchUp(entry, id: id, committed: nil) else { throw error }
                    }
                }
                return nil  // deleted meanwhile: start over with a new slot
            }
            if let result { return result }
        }
    }

    /// After a few lost races for the same write, waits a random while (up to 0.25 ms per
    /// conflict, at most 4 ms) so that writers on other instances finish and this one can win;
    /// without it a loaded machine could see one writer lose all `maxConflicts` races.
    private static func backOff(afterConflicts conflicts: Int) {
        guard conflicts >= 4 else { return }
        usleep(UInt32(Int.random(in: 0...min(conflicts, 16)) * 250))
    }

    /// Whether `error` is a write's refusal (which a newer version might not make) rather than
    /// the store failing.
    private static func isRefusal(_ error: any Error) -> Bool {
        !(error is StoreError) && !(error is SQLiteError)
    }
}
