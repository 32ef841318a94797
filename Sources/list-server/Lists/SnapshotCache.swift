import HTTPServer
import Synchronization

/// Bytes computed from one snapshot and reused until the next version: the serialized
/// document (GET JSON, `view=json` resets), the answer of a GET of the document, and the first
/// HTML pages' answers (GET of a list page). A snapshot never changes, so nothing here is ever
/// stale. The answers are `PreparedResponse`s, which also keep their gzip form once made.
final class SnapshotCache: Sendable {
    private struct Storage {
        var documentJSON: [UInt8]?
        var documentAnswer: PreparedResponse?
        var firstPages: [Int: PreparedResponse] = [:]
    }

    private let storage = Mutex(Storage())
    /// Held while the document's bytes are made, so readers arriving together (many
    /// subscribers after a write) wait for one serialization instead of each making their own.
    private let buildingDocument = Mutex(())
    /// Most first pages kept (one per `limit` asked for).
    static let maxPages = 4

    /// The document's canonical JSON bytes, computed once (`make` takes no lock of its own).
    func documentJSON(_ make: () -> [UInt8]) -> [UInt8] {
        if let bytes = storage.withLock({ $0.documentJSON }) { return bytes }
        return buildingDocument.withLock { _ in
            if let bytes = storage.withLock({ $0.documentJSON }) { return bytes }
            let bytes = make()
            storage.withLock { $0.documentJSON = bytes }
            return bytes
        }
    }

    /// The complete answer of `GET /lists/{id}` as JSON, built once.
    func documentAnswer(_ make: () throws -> Response) throws -> PreparedResponse {
        if let prepared = storage.withLock({ $0.documentAnswer }) { return prepared }
        let prepared = try PreparedResponse(make())
        storage.withLock { $0.documentAnswer = $0.documentAnswer ?? prepared }
        return prepared
    }

    /// The complete answer for the HTML page of the first `limit` rows, built once per limit
    /// (status, headers and bytes, handed to libmicrohttpd as they are).
    func firstPage(limit: Int, _ make: () throws -> Response) throws -> PreparedResponse {
        if let prepared = storage.withLock({ $0.firstPages[limit] }) { return prepared }
        let prepared = try PreparedResponse(make())
        storage.withLock { storage in
            if storage.firstPages.count < Self.maxPages { storage.firstPages[limit] = prepared }
        }
        return prepared
    }
}
