import Dispatch
import ListModel
import ListStore
import ServerSupport
import Synchronization

/// The lists this instance holds: current snapshots in memory, the store as the durable truth
/// (shared with other instances when it is PostgreSQL).
///
/// Writes are optimistic (`ListRegistry+Write.swift`): computed from the cached snapshot and
/// committed with the version they expect; when another instance committed first, the registry
/// catches up from the store's change log (`ListRegistry+CatchUp.swift`) and tries again.
/// Writers to one list are serialised by that list's lock; writers to different lists proceed
/// in parallel. Readers take the current snapshot under a lock held for a pointer copy: they
/// never wait for a write to be computed, and never see a version go back.
///
/// Every committed change, this instance's and other instances' alike, goes one way: handed to
/// `publish` under the list's lock, in version order, before the new snapshot is visible to
/// readers. `publish` must be quick (the live hub queues the change and returns).
package final class ListRegistry: Sendable {
    /// One list's slot. `writer` is held for a whole write or catch-up; `current` only to swap snapshots.
    /// Writers queue for `writer` in order and each gives up at its deadline (`writeTimeout`).
    package final class Entry: Sendable {
        package let writer = DeadlineLock()
        package let current = Mutex<ListSnapshot?>(nil)
        /// Set once the slot no longer belongs to the registry (deleted, or nothing was created in it).
        package let removed = Atomic<Bool>(false)
    }

    private let entries = Mutex<[String: Entry]>([:])
    /// The version each deleted list was deleted at; a list created again continues from it.
    package let tombstones = Mutex<[String: Int]>([:])
    package let store: any Store
    private let maxLists: Int
    package let publish: @Sendable (ListChange) -> Void
    /// How many times one write meets another instance's commit before it gives up (503). Each
    /// conflict catches the list up, so a write loses again only to a commit made while it was
    /// being computed; only a list written without pause on several instances comes near this.
    package static let maxConflicts = 64
    /// The most a write (or a catch-up) waits for its list in all: behind the list's other
    /// writers here, then for the store's connection and locks (`--write-timeout`). Past it the
    /// write throws `RegistryError.busy` and changes nothing.
    package let writeTimeout: Duration
    /// The most writes that wait for one list (behind the one being written); more are refused
    /// at once with `RegistryError.queueFull`.
    package let maxQueuedWriters: Int

    /// Loads every stored list and hands each to `publish` (as a change from nothing), so the
    /// live hub knows them; a stored list that no longer decodes stops the start with its id.
    /// - Parameter publish: gets every committed change, in version order per list.
    package init(
        store: any Store, maxLists: Int = ServerDefaults.maxLists,
        writeTimeout: Duration = .seconds(ServerDefaults.writeTimeoutSeconds),
        maxQueuedWriters: Int = ServerDefaults.maxQueuedWritersPerList,
        publish: @escaping @Sendable (ListChange) -> Void = { _ in }
    ) throws {
        self.store = store
        self.writeTimeout = writeTimeout
        self.maxQueuedWriters = maxQueuedWriters
        self.maxLists = maxLists
        self.publish = publish
        var loaded: [String: Entry] = [:]
        try store.forEachList { stored, rowCount, readRows in
            let entry = Entry()
            let snapshot = try StoredListCoding.snapshot(of: stored, rowCount: rowCount, readRows: readRows)
            publish(ListChange(id: stored.id, old: nil, new: snapshot, patch: JSONPatch(operations: [])))
            entry.current.withLock { $0 = snapshot }
            loaded[stored.id] = entry
        }
        entries.withLock { $0 = loaded }
        let deleted = try store.loadTombstones()
        tombstones.withLock { $0 = deleted }
    }

    /// The current snapshot of a list, if this instance holds it.
    package func snapshot(id: String) -> ListSnapshot? {
        guard let entry = entries.withLock({ $0[id] }) else { return nil }
        return entry.current.withLock { $0 }
    }

    /// The current snapshot of a list; one this instance does not hold yet (created on another
    /// instance a moment ago) is looked up in the store. Nil when there is none, or when the
    /// store cannot be asked (reads serve what the instance holds).
    package func find(id: String) -> ListSnapshot? {
        if let snapshot = snapshot(id: id) { return snapshot }
        try? catchUp(id: id)
        return snapshot(id: id)
    }

    /// `find` for a request about one list: the list must exist.
    /// - Throws: `RegistryError.gone` for a deleted list (410), `.notFound` when there never
    ///   was one (404, API/RegistryError+HTTP.swift).
    package func existing(id: String) throws -> ListSnapshot {
        guard let snapshot = find(id: id) else { throw missing(id: id) }
        return snapshot
    }

    /// Why there is no list `id`: it was deleted (its tombstone says when), or there never was one.
    ///
    /// Tombstones are not bounded: each holds the version a list created again under its id
    /// continues from, so that no version (and no `ETag` a client holds) is ever reused; one is
    /// an id and a number, and the ids a server has seen deleted are at most the ids it has seen.
    package func missing(id: String) -> RegistryError {
        tombstones.withLock { $0[id] }.map { .gone(id: id, version: $0) } ?? .notFound(id: id)
    }

    /// Every list's current snapshot, ordered by id.
    package func all() -> [ListSnapshot] {
        let all = entries.withLock { Array($0.values) }
        return all.compactMap { entry in entry.current.withLock { $0 } }.sorted { $0.id < $1.id }
    }

    /// The version of every list held, for comparing with the store's.
    package func versions() -> [String: Int] {
        let all = entries.withLock { $0 }
        var versions: [String: Int] = [:]
        for (id, entry) in all {
            if let version = entry.current.withLock({ $0?.version }) { versions[id] = version }
        }
        return versions
    }

    /// Throws unless the store can still commit (the health check).
    package func checkStoreWritable() throws { try store.checkWritable() }

    /// True while the store knows its disk has no room for writes.
    package var storeIsOutOfRoom: Bool { store.isOutOfRoom }

    /// The entry for `id`, making an empty slot when there is none. A slot made for a write
    /// that may create the list counts against `maxLists`; one made to look for a list in the
    /// store does not (a list that exists is served whatever the limit).
    package func slot(for id: String, creating: Bool) throws -> Entry {
        try entries.withLock { entries in
            if let entry = entries[id] { return entry }
            if creating, entries.count >= maxLists { throw RegistryError.tooManyLists(limit: maxLists) }
            let entry = Entry()
            entries[id] = entry
            return entry
        }
    }

    /// Takes a slot out of the registry; writers waiting on it start over.
    package func retire(_ entry: Entry, id: String) {
        entry.removed.store(true, ordering: .releasing)
        entries.withLock { entries in
            if entries[id] === entry { entries[id] = nil }
        }
    }

    /// Makes a committed change current: hands it to `publish`, then lets readers see it.
    /// Called under the entry's writer lock. A deletion retires the slot.
    package func accept(_ change: ListChange, into entry: Entry, deletedAt: Int? = nil) {
        publish(change)
        if let new = change.new {
            if change.old == nil { tombstones.withLock { _ = $0.removeValue(forKey: change.id) } }
            entry.current.withLock { $0 = new }
        } else {
            tombstones.withLock { $0[change.id] = max($0[change.id] ?? 0, deletedAt ?? 0) }
            entry.current.withLock { $0 = nil }
            retire(entry, id: change.id)
        }
        if let old = change.old { Self.releaseLater(old) }
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
}
