import Foundation
import Testing

@testable import ListStore

/// The two store backends; the store's suite runs against both.
enum Backend: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }
}

/// Where one test keeps its store: a fresh SQLite file, or a fresh database in the shared
/// PostgreSQL cluster. `open()` may be called again to reopen the same store.
final class TestDatabase: Sendable {
    let backend: Backend
    private let folder: URL?
    private let url: String

    /// A fresh database in `cluster` (PostgreSQL) instead of the shared one.
    convenience init(_ backend: Backend, in cluster: TestCluster) throws {
        try self.init(backend, url: cluster.freshDatabase())
    }

    convenience init(_ backend: Backend) throws {
        try self.init(backend, url: nil)
    }

    private init(_ backend: Backend, url postgresURL: String?) throws {
        self.backend = backend
        switch backend {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("liststore-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            self.folder = folder
            url = folder.appendingPathComponent("test.sqlite").path
        case .postgres:
            folder = nil
            url = try postgresURL ?? TestCluster.shared.get().freshDatabase()
        }
    }

    deinit { if let folder { try? FileManager.default.removeItem(at: folder) } }

    /// The store (a new connection to the same data each time).
    func open(changeLogLimit: Int = 1_000) throws -> any Store {
        switch backend {
        case .sqlite: try SQLiteStore(path: url, changeLogLimit: changeLogLimit)
        case .postgres: try PostgresStore(url: url, changeLogLimit: changeLogLimit)
        }
    }

    /// The PostgreSQL URL (only for `.postgres`).
    var postgresURL: String { url }
}
