import Dispatch
import ListModel
import ListStore
import Synchronization

/// The lists this server holds: current snapshots in memory, SQLite as the durable truth.
///
/// Writers to one list are serialised by that list's lock and see each other's results;
/// writers to different lists proceed in parallel (only the short SQLite commit is shared).
/// Readers take the current snapshot under a lock held for a pointer copy: they never wait
/// for a write to be computed. Changes are published under the list's lock, so subscribers
/// see them in version order.
final class ListRegistry: Sendable {
    /// One list's slot. `writer` is held for a whole write; `current` only to swap snapshots.
    private final class Entry: Sendable {
        let writer = Mutex<Void>(())
        let current = Mutex<ListSnapshot?>(nil)
        /// Set once the slot no longer belongs to the registry (deleted, or a failed create).
        let removed = Atomic<Bool>(false)
    }

    private let entries = Mutex<[String: Entry]>([:])
    /// The version each deleted list was deleted at; a list created again continues from it.
    private let tombstones = Mutex<[String: Int]>([:])
    private let store: any Store
    private let maxLists: Int
    private let publish: @Sendable (ListChange) -> Void

    /// Loads every stored list; a stored list that no longer decodes stops the start with its id. `publish` is called once per accepted write, in version order per list.
    init(store: any Store, maxLists: Int = 10_000, publish: @escaping @Sendable (ListChange) -> Void = { _ in }) throws {
        self.store = store
        self.maxLists = maxLists
        self.publish = publish
        var loaded: [String: Entry] = [:]
        for stored in try store.loadAll() {
            let entry = Entry()
            let snapshot = try StoredListCoding.snapshot(from: stored)
            entry.current.withLock { $0 = snapshot }
            loaded[stored.id] = entry
        }
        entries.withLock { $0 = loaded }
        let deleted = try store.loadTombstones()
        tombstones.withLock { $0 = deleted }
    }

    /// The current snapshot of a list, if it exists.
    func snapshot(id: String) -> ListSnapshot? {
        guard let entry = entries.withLock({ $0[id] }) else { return nil }
        return entry.current.withLock { $0 }
    }

    /// Every list's current snapshot, ordered by id.
    func all() -> [ListSnapshot] {
        let all = entries.withLock { Array($0.values) }
        return all.compactMap { entry in entry.current.withLock { $0 } }.sorted { $0.id < $1.id }
    }

    /// Applies one write. `edit` gets the current document (nil when the list does not exist
    /// and `mayCreate` is true) and returns the new one, or throws to refuse: then nothing changes.
    /// The patch for subscribers and the store's rows come from a diff of the whole list.
    /// - Parameter precondition: the client's `If-Match` / `If-None-Match`.
    @discardableResult
    func write(id: String, precondition: WritePrecondition = .none, mayCreate: Bool = false,
               _ edit: (ListDocument?) throws -> ListDocument) throws -> ListSnapshot {
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
    @discardableResult
    func writeRows(id: String, precondition: WritePrecondition = .none,
                   _ edit: (IndexedList) throws -> IndexedRowEdit) throws -> ListSnapshot {
        try apply(id: id, precondition: precondition, mayCreate: false) { old in
            let made = try edit(old!.list)
            return (made.list, made.patch, made)
        }
    }

    /// The write both kinds share: locks, precondition, version, store commit, publication.
    /// `compute` returns the new list, the patch from the old one, and for a row edit the edit.
    private func apply(
        id: String, precondition: WritePrecondition, mayCreate: Bool,
        _ compute: (ListSnapshot?) throws -> (list: IndexedList, patch: JSONPatch, rows: IndexedRowEdit?)
    ) throws -> ListSnapshot {
        while true {
            let entry = try slot(for: id, mayCreate: mayCreate)
            let result: ListSnapshot? = try entry.writer.withLock { _ in
                if entry.removed.load(ordering: .acquiring) { return nil }
                let old = entry.current.withLock { $0 }
                do {
                    guard old != nil || mayCreate else { throw RegistryError.notFound(id: id) }
                    if let failure = precondition.failure(version: old?.version) {
                        throw RegistryError.preconditionFailed(failure)
                    }
                    let (list, patch, rows) = try compute(old)
                    let base = old?.version ?? tombstones.withLock { $0[id] } ?? 0
                    let new = ListSnapshot(id: id, version: base + 1, list: list)
                    let write = rows.map { StoredListCoding.write(to: new, rowEdit: $0) }
                        ?? StoredListCoding.write(from: old, to: new, patch: patch)
                    try store.commit(write)
                    if old == nil { tombstones.withLock { _ = $0.removeValue(forKey: id) } }
                    entry.current.withLock { $0 = new }
                    publish(ListChange(id: id, old: old, new: new, patch: patch))
                    if let old { Self.releaseLater(old) }
                    return new
                } catch {
                    if old == nil { retire(entry, id: id) }
                    throw error
                }
            }
            if let result { return result }
        }
    }

    /// Lets go of a replaced snapshot on a background queue: freeing a large list's arrays
    /// (a release per row) would otherwise add to the write's answer time. Whichever thread
    /// drops the last reference frees it, so this only moves the work when nothing else
    /// (e.g. the live hub's recent versions) holds it. With `maxPendingReleases` already
    /// waiting (writes outpacing the queue), the caller lets go itself, so old versions
    /// cannot pile up in memory.
    private static func releaseLater(_ snapshot: ListSnapshot) {
        guard pendingReleases.add(1, ordering: .relaxed).newValue <= maxPendingReleases else {
            pendingReleases.subtract(1, ordering: .relaxed)
            return
        }
        releaseQueue.asyncAfter(deadline: .now() + .milliseconds(5)) {
            withExtendedLifetime(snapshot) {}
            pendingReleases.subtract(1, ordering: .relaxed)
        }
    }

    private static let releaseQueue = DispatchQueue(label: "list-server.release", qos: .utility)
    private static let pendingReleases = Atomic<Int>(0)
    private static let maxPendingReleases = 8

    /// Deletes a list. Returns the last snapshot it had.
    @discardableResult
    func delete(id: String, precondition: WritePrecondition = .none) throws -> ListSnapshot {
        while true {
            guard let entry = entries.withLock({ $0[id] }) else { throw RegistryError.notFound(id: id) }
            let result: ListSnapshot? = try entry.writer.withLock { _ in
                if entry.removed.load(ordering: .acquiring) { return nil }
                guard let old = entry.current.withLock({ $0 }) else { throw RegistryError.notFound(id: id) }
                if let failure = precondition.failure(version: old.version) {
                    throw RegistryError.preconditionFailed(failure)
                }
                try store.delete(id: id, version: old.version + 1)
                tombstones.withLock { $0[id] = old.version + 1 }
                entry.current.withLock { $0 = nil }
                retire(entry, id: id)
                publish(ListChange(id: id, old: old, new: nil, patch: JSONPatch(operations: [])))
                return old
            }
            if let result { return result }
        }
    }

    /// Throws unless the store can still commit (the health check).
    func checkStoreWritable() throws { try store.checkWritable() }

    /// The entry for `id`, creating an empty slot when allowed and there is room.
    private func slot(for id: String, mayCreate: Bool) throws -> Entry {
        try entries.withLock { entries in
            if let entry = entries[id] { return entry }
            guard mayCreate else { throw RegistryError.notFound(id: id) }
            guard entries.count < maxLists else { throw RegistryError.tooManyLists(limit: maxLists) }
            let entry = Entry()
            entries[id] = entry
            return entry
        }
    }

    /// Takes a slot out of the registry; writers waiting on it start over.
    private func retire(_ entry: Entry, id: String) {
        entry.removed.store(true, ordering: .releasing)
        entries.withLock { entries in
            if entries[id] === entry { entries[id] = nil }
        }
    }
}
