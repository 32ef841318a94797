import ServerSupport
import Synchronization

/// The serialized documents that `reset` events carry, one per version and window, shared by
/// every subscriber sent that reset: 100 readers of a 4 MB list hold one copy, not 100. A leaf
/// lock; a document is made under it, so readers arriving together wait for one serialization.
package final class ResetDocumentCache: Sendable {
    package struct Key: Hashable {
        package let version: Int
        package let view: Subscriber.View
        /// The window; nil for the whole `view=json` document.
        package let window: LiveWindow?
    }

    private let entries = Mutex<[Key: SharedBytes]>([:])
    /// Documents kept at most (distinct windows of the newest versions); past it, the cache
    /// starts over.
    package let capacity: Int

    package init(capacity: Int = 64) { self.capacity = capacity }

    /// The document for `version` and `window`, made by `make` the first time.
    package func document(version: Int, view: Subscriber.View, window: LiveWindow?, make: () -> [UInt8]) -> SharedBytes {
        entries.withLock { entries in
            let key = Key(version: version, view: view, window: window)
            if let kept = entries[key] { return kept }
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            let made = SharedBytes(make())
            entries[key] = made
            return made
        }
    }

    /// Drops the documents of versions before `version` (no new reset is made for them).
    package func forget(before version: Int) {
        entries.withLock { entries in
            guard entries.keys.contains(where: { $0.version < version }) else { return }
            entries = entries.filter { $0.key.version >= version }
        }
    }

    package var count: Int { entries.withLock { $0.count } }
}
