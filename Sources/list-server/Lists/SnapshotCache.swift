import Synchronization

/// Bytes computed from one snapshot and reused until the next version: the serialized
/// document (GET JSON, `view=json` resets) and the first HTML pages (GET of a list page).
/// A snapshot never changes, so nothing here is ever stale.
final class SnapshotCache: Sendable {
    private struct Storage {
        var documentJSON: [UInt8]?
        var firstPages: [Int: [UInt8]] = [:]
    }

    private let storage = Mutex(Storage())
    /// Most first pages kept (one per `limit` asked for).
    static let maxPages = 4

    /// The document's canonical JSON bytes, computed once.
    func documentJSON(_ make: () -> [UInt8]) -> [UInt8] {
        if let bytes = storage.withLock({ $0.documentJSON }) { return bytes }
        let bytes = make()
        storage.withLock { $0.documentJSON = bytes }
        return bytes
    }

    /// The HTML page of the first `limit` rows, computed once per limit.
    func firstPage(limit: Int, _ make: () -> [UInt8]) -> [UInt8] {
        if let bytes = storage.withLock({ $0.firstPages[limit] }) { return bytes }
        let bytes = make()
        storage.withLock { storage in
            if storage.firstPages.count < Self.maxPages { storage.firstPages[limit] = bytes }
        }
        return bytes
    }
}
