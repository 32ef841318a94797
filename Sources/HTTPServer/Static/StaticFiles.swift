import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Serves the regular files under one directory, safely, with `ETag`/`If-None-Match` and caching.
///
/// Paths are given as decoded segments. Any segment that is empty, starts with ".", or holds
/// "/", "\\" or a control character is refused with 404, as is any file whose real path (after
/// symlinks) is outside the root: no encoding of ".." can leave the directory. Files up to
/// 1 MiB are kept in memory and re-read when their size or modification time changes.
public final class StaticFiles: Sendable {
    /// The real path of the served directory.
    public let root: String
    /// Sent with every file and 304.
    public let cacheControl: String

    private struct CachedFile: Sendable {
        let realPath: String
        let version: FileVersion
        let etag: String
        /// The 200 answer, built once.
        let prepared: PreparedResponse
    }

    private let cache = Mutex<[String: CachedFile]>([:])
    private static let cacheLimit = 1024 * 1024

    /// - Parameter cacheControl: by default clients revalidate every time (cheap with 304s),
    ///   so a changed client script is picked up at once.
    /// - Throws: `HTTPError` 500 if `directory` does not exist.
    public init(directory: String, cacheControl: String = "no-cache") throws {
        guard let resolved = realpath(directory, nil) else {
            throw HTTPError(.internalServerError, "Static directory \(directory) does not exist.")
        }
        defer { free(resolved) }
        root = String(cString: resolved)
        self.cacheControl = cacheControl
    }

    /// True when `segment` may name a file or folder below the root.
    static func isSafe(_ segment: String) -> Bool {
        guard !segment.isEmpty, !segment.hasPrefix(".") else { return false }
        return !segment.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// The response for the file at `segments` below the root: 200 with the bytes (the server
    /// answers 304 when the request's `If-None-Match` names the `ETag` of the answer it would
    /// send, `HTTPServer.notModified`).
    /// - Throws: `HTTPError` 404 when the path is unsafe or names no regular file.
    public func response(for segments: [String], request: Request) throws -> Response {
        guard !segments.isEmpty, segments.allSatisfy(Self.isSafe) else { throw notFound() }
        let relative = segments.joined(separator: "/")
        let file = try load(relative)
        return Response(prepared: file.prepared)
    }

    private func load(_ relative: String) throws -> CachedFile {
        if let cached = cache.withLock({ $0[relative] }) {
            var info = stat()
            if stat(cached.realPath, &info) == 0, FileVersion(info) == cached.version { return cached }
        }
        guard let resolved = realpath(root + "/" + relative, nil) else { throw notFound() }
        let realPath = String(cString: resolved)
        free(resolved)
        guard realPath.hasPrefix(root + "/") else { throw notFound() }
        let fd = open(realPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw notFound() }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw notFound() }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, size - done) }
            guard n > 0 else { break }
            done += n
        }
        bytes.removeSubrange(done...)
        let version = FileVersion(info)
        let etag = version.etag
        let contentType = MediaType.forFile(named: realPath)
        let headers: HTTPHeaders = [
            "ETag": etag, "Cache-Control": cacheControl,
            "Content-Type": contentType, "X-Content-Type-Options": "nosniff",
        ]
        let prepared = try PreparedResponse(Response(status: .ok, headers: headers, body: bytes))
        let file = CachedFile(realPath: realPath, version: version, etag: etag, prepared: prepared)
        if size <= Self.cacheLimit { cache.withLock { $0[relative] = file } }
        return file
    }

    private func notFound() -> HTTPError {
        HTTPError(.notFound, "No such asset.")
    }
}

/// What identifies one version of a file: inode, size and modification time.
struct FileVersion: Equatable, Sendable {
    let inode: UInt64
    let size: Int64
    let modified: UInt64

    init(_ info: stat) {
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = UInt64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ UInt64(info.st_mtim.tv_nsec)
    }

    /// A strong validator for this version.
    var etag: String {
        "\"\(String(inode, radix: 16))-\(String(size, radix: 16))-\(String(modified, radix: 16))\""
    }
}

extension String {
    var trimmingSpaces: String {
        String(self.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
