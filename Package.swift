// swift-tools-version:6.0
import PackageDescription

/// list-server: shared list models rendered to HTML tables, served page by page,
/// and kept live in every browser through JSON Patch over Server-Sent Events.
///
/// The server is three targets, and the compiler keeps their layers (docs/ARCHITECTURE.md):
/// `list-server` (command, settings, wiring) → `ListServerHTTP` (API adapters, routes, the
/// context every route reaches) → `ListService` (lists, live hub, access policy: no HTTP).
/// Below them, dependencies point one way too:
/// `ListServerHTTP → HTTPServer → CMicroHTTPD, CZlib, ServerSupport`,
/// `ListService → HTMLRenderer → ListModel`, `ListService → ListStore → CSQLite, CLibPQ, ServerSupport`,
/// `ListService → ServerSupport` (log, clock, shared bytes, defaults: no HTTP), `ListService → Crypto`,
/// `ListModelTesting → ListModel` (test and benchmark support only).
/// The hub writes to a `SubscriberStream` it declares; HTTPServer's `ResponseStream` conforms to
/// it in ListServerHTTP. Inside each target, folders depend one way too: ListService
/// `Demo/ → Lists/ ← Live/`, `Access/` alone; ListServerHTTP `Routes/ → Server/ → API/`.
let package = Package(
    name: "list-server",
    products: [
        .library(name: "ListModel", targets: ["ListModel"]),
        .library(name: "HTMLRenderer", targets: ["HTMLRenderer"]),
        .executable(name: "list-server", targets: ["list-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // HMAC-SHA256 for view links and token digests (BoringSSL underneath; no hand-written crypto).
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        // C binding to GNU libmicrohttpd: only what Swift cannot do itself.
        .target(
            name: "CMicroHTTPD",
            linkerSettings: [.linkedLibrary("microhttpd")]
        ),
        // The system zlib (Debian zlib1g-dev), for gzip answers.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // The system SQLite (Debian libsqlite3-dev).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // The PostgreSQL client library (Debian libpq-dev; its header lives in /usr/include/postgresql).
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // Pure values: JSON, the list document, JSON Pointer/Patch, keyed diff, order keys, cursors.
        .target(name: "ListModel"),
        // Test support: seedable random list documents, edits and patches (SplitMix64), for the
        // tests, the benchmarks and `diff-corpus`; not part of the ListModel library.
        .target(name: "ListModelTesting", dependencies: ["ListModel"]),
        // Documents, pages and rows to escaped HTML bytes.
        .target(name: "HTMLRenderer", dependencies: ["ListModel"]),
        // The durable store (`Store`): SQLite in WAL mode for one instance, or PostgreSQL shared by
        // several (LISTEN/NOTIFY change feed); rows stored one by one, a bounded change log that
        // carries order keys, so other instances can replay it.
        .target(name: "ListStore", dependencies: ["CSQLite", "CLibPQ", "ServerSupport"]),
        // What the HTTP layer and the server's domain both need, and nothing of HTTP: the log
        // (levels, one write per line), the monotonic clock, bytes shared by many streams.
        .target(name: "ServerSupport"),
        // A small HTTP layer over libmicrohttpd: request, response, router, streaming.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "CZlib", "ServerSupport"]),
        // The server's domain, which knows no HTTP: the lists (registry, snapshots, catch-up with
        // the store), the live hub (channels, windows, events), access policy (tokens, view links,
        // list ids), the demo lists.
        .target(
            name: "ListService",
            dependencies: [
                "ListModel", "HTMLRenderer", "ListStore", "ServerSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The server's HTTP side: API adapters (requests to domain calls, domain errors to
        // answers, access checks), the routes, the context every route reaches.
        .target(
            name: "ListServerHTTP",
            dependencies: ["ListService", "ListModel", "HTMLRenderer", "HTTPServer", "ListStore", "ServerSupport"]
        ),
        // Test support for the server, as HummingbirdTesting is for hummingbird: a client that sends
        // requests to the router in process, a live client that reads a hub's stream and keeps its
        // document, and an in-memory context.
        .target(
            name: "ListServerTesting",
            dependencies: ["ListServerHTTP", "ListService", "HTTPServer", "HTMLRenderer", "ListModel", "ListStore"]
        ),
        // The executable: the command line, its settings, and the wiring that starts it all.
        .executableTarget(
            name: "list-server",
            dependencies: [
                "ListServerHTTP", "ListService", "HTTPServer", "ListStore", "ServerSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Release-mode benchmark harness: `swift run -c release list-bench`.
        .executableTarget(
            name: "list-bench",
            dependencies: ["ListModel", "ListModelTesting", "HTMLRenderer", "HTTPServer"],
            path: "Benchmarks/list-bench"
        ),
        // Release-mode store benchmark (SQLite beside PostgreSQL): `scripts/bench/store.sh`.
        .executableTarget(
            name: "store-bench",
            dependencies: ["ListStore"],
            path: "Benchmarks/store-bench"
        ),
        // Emits random (old, new, patch) triples for the differential test against Python's jsonpatch.
        .executableTarget(
            name: "diff-corpus",
            dependencies: ["ListModel", "ListModelTesting"],
            path: "Tests/Tools/diff-corpus"
        ),
        .testTarget(name: "ListModelTests", dependencies: ["ListModel", "ListModelTesting"]),
        .testTarget(
            name: "HTMLRendererTests",
            dependencies: ["HTMLRenderer", "ListModel"],
            exclude: ["Snapshots"]
        ),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "ServerSupport"]),
        .testTarget(name: "ServerSupportTests", dependencies: ["ServerSupport"]),
        .testTarget(name: "ListStoreTests", dependencies: ["ListStore"]),
        .testTarget(
            name: "ListServerTests",
            dependencies: [
                "list-server", "ListServerHTTP", "ListServerTesting", "ListService", "ListStore", "ListModel", "ListModelTesting",
                "HTMLRenderer", "HTTPServer", "ServerSupport",
            ]),
    ]
)
