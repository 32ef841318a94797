import Foundation

@testable import ListStore

/// A private PostgreSQL started by `scripts/pg-cluster` for the tests (real, never a mock): in a
/// folder under the temporary directory, on 127.0.0.1 and a free port. The cluster is destroyed
/// by `destroy()`, or when this test process ends however it ends (the script watches it).
final class TestCluster: @unchecked Sendable {
    let folder: String
    /// The cluster's URL (it holds the password).
    private(set) var url: String

    /// The cluster most tests share, each in a database of its own; made on first use.
    static let shared: Result<TestCluster, any Error> = Result {
        let cluster = try TestCluster()
        atexit { _ = try? TestCluster.script(["destroy", sharedFolder]) }
        return cluster
    }
    private nonisolated(unsafe) static var sharedFolder = ""

    /// Starts a new cluster (a few seconds: initdb).
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("list-server-pg-\(UUID().uuidString)").path
        url = try Self.script(["start", folder, "--no-fsync", "--owner", "\(getpid())"])
        if Self.sharedFolder.isEmpty { Self.sharedFolder = folder }
    }

    /// A new, empty database in the cluster; its URL.
    func freshDatabase() throws -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let admin = try PGConnection(PostgresAddress(url))
        try admin.execute("CREATE DATABASE \(name)")
        return String(url.dropLast("postgres".count)) + name
    }

    /// Stops PostgreSQL (`immediate`: as if it crashed), keeping its data.
    func stop(immediate: Bool = false) throws {
        _ = try Self.script(["stop", folder] + (immediate ? ["--immediate"] : []))
    }

    /// Starts it again, on the same port.
    func start() throws {
        url = try Self.script(["start", folder, "--no-fsync"])
    }

    func destroy() {
        _ = try? Self.script(["destroy", folder])
    }

    /// Runs `scripts/pg-cluster` with `arguments`; its standard output, trimmed. (posix_spawn and
    /// waitpid: Foundation's `Process` missed the script's exit here and waited forever.)
    @discardableResult
    static func script(_ arguments: [String]) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("scripts/pg-cluster").path
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw StoreError(.failed, "pipe failed") }
        // Nothing the script starts (PostgreSQL, the watchdog) may hold the pipe open.
        for end in pipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(pipe[1])
        defer { close(pipe[0]) }
        guard spawned == 0 else { throw StoreError(.failed, "cannot run \(path): error \(spawned)") }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(pipe[0], &buffer, buffer.count)
            if count > 0 { output += buffer[0..<count] } else if count == 0 || errno != EINTR { break }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            throw StoreError(.failed, "scripts/pg-cluster \(arguments.first ?? "") failed (wait status \(status))")
        }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
