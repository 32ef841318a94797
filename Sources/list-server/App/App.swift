import ArgumentParser
import Foundation
import HTMLRenderer
import HTTPServer
import ListServerHTTP
import ListService
import ListStore
import ServerSupport

/// Starts the server from `Settings`, logs the ready line, and stops cleanly on SIGINT/SIGTERM.
struct App {
    let settings: Settings

    func run() throws {
        let address = try BindAddress(host: settings.configuration.host, port: settings.configuration.port)
        if let refusal = AccessPolicy.refusal(settings: settings, isLoopback: address.isLoopback) {
            Log.error("refusing to start: \(refusal)")
            throw ExitCode(2)
        }
        let tokens = try AccessPolicy.loadTokens(settings: settings)
        let publicDirectory = try PublicDirectory.locate(explicit: settings.publicDirectory)
        let (store, registry, hub, follower) = try openLists()
        let policy = try AccessPolicy.starting(settings: settings, tokens: tokens, store: store)
        let context = ServerContext(
            assets: try StaticFiles(directory: publicDirectory), registry: registry, hub: hub,
            authorization: Authorization(policy: policy), maxRows: settings.maxRows, baseURL: settings.baseURL)
        Log.info("static files: \(context.assets.root)")

        raiseFileLimit()
        // Before any thread starts, so all inherit the mask. SIGHUP re-reads --tokens (only then
        // is it caught: otherwise it still ends the server, as a closed terminal expects).
        let signals = settings.tokensFile == nil ? SignalWaiter(SIGINT, SIGTERM) : SignalWaiter(SIGINT, SIGTERM, SIGHUP)
        let server = try HTTPServer(
            configuration: settings.configuration, router: makeRouter(context: context),
            metrics: context.metrics)
        do {
            try server.start()
        } catch let failure as BindFailure {
            let hint =
                failure.reason.contains("in use")
                ? "another program holds that port: pick another with --port, or --port 0 for a free one"
                : failure.reason.contains("ermission") ? "ports below 1024 need privileges: use --port 8080 or above" : "check --host"
            Log.error("\(failure) (\(hint))")
            throw ExitCode(1)
        } catch {
            Log.error("cannot listen on \(address.url(port: address.port)): \(error)")
            throw ExitCode(1)
        }
        hub.startSweeper()
        // Several instances share presence through PostgreSQL; one counts its own streams.
        let presence = (store as? any PresenceStore).map { store in
            PresenceExchange(
                hub: hub, store: store, instance: settings.instanceName ?? "unnamed-\(SubscriptionID.make().prefix(12))")
        }
        presence?.start()
        Log.info("list-server ready at \(server.url)")
        var signal = signals.wait()
        while signal == SIGHUP {
            let (level, message) = context.authorization.policy.reload()
            Log.log(level, message)
            let closed = context.streamGrants.closeRevoked()
            if closed > 0 { Log.info("SIGHUP: \(closed) open streams ended: the tokens now in force no longer allow them") }
            signal = signals.wait()
        }
        Log.info("received \(signal == SIGINT ? "SIGINT" : "SIGTERM"), shutting down (\(context.metrics.openStreams) open streams)")
        follower.stop()
        presence?.stop()
        hub.stop()
        server.shutdown()
        store.close()
        Log.info("list-server stopped")
    }

    /// Opens the store, loads every list into the registry, which hands every committed change
    /// to the live hub, starts following other instances' commits, and adds the demo lists when
    /// asked and the store is empty.
    private func openLists() throws -> (any Store, ListRegistry, LiveHub, StoreFollower) {
        let store: any Store
        let registry: ListRegistry
        let hub = LiveHub(
            renderer: HTMLRenderer(),
            limits: LiveHub.Limits(
                maxSubscribers: settings.maxSubscribers, staleTimeoutSeconds: settings.staleTimeoutSeconds,
                subscriptionPrefix: settings.instanceName, maxViews: settings.maxViews))
        let loadStarted = monotonicNanoseconds()
        do {
            let writeTimeout = Duration.milliseconds(Int64(settings.writeTimeoutSeconds * 1000))
            store = try StoreLocation.open(settings.databasePath, diskReserve: settings.diskReserve, writeTimeout: writeTimeout)
            registry = try ListRegistry(
                store: store, maxLists: settings.maxLists, writeTimeout: writeTimeout,
                publish: { hub.receive($0) })
        } catch {
            let reason = SQLiteFileProblem.explain(settings.databasePath).map { "\($0); " } ?? ""
            Log.error("cannot open the store \(StoreLocation.redacted(settings.databasePath)): \(reason)\(error)")
            throw ExitCode(1)
        }
        // A store shared with other instances is compared with the cache every second, so a
        // notification lost on the way costs latency, never correctness; an SQLite file has no
        // other writer to follow.
        let shared = PostgresStore.accepts(settings.databasePath)
        let follower = StoreFollower(registry: registry, store: store, reconcileSeconds: shared ? 1 : nil)
        follower.start()
        HeapTrim.trimNow(after: "loading the lists")
        let lists = registry.all()
        let loadSeconds = Double(monotonicNanoseconds() - loadStarted) / 1e9
        Log.info(
            "store \(StoreLocation.redacted(settings.databasePath)): \(lists.count) lists, "
                + "\(lists.reduce(0) { $0 + $1.list.rowCount }) rows, loaded in \(String(format: "%.1f", loadSeconds)) s"
        )
        if settings.demo {
            if lists.isEmpty {
                try DemoLists.load(into: registry)
                Log.info("loaded \(DemoLists.all.count) demo lists")
            } else {
                Log.info("--demo: the store already holds lists, so no demo lists were added")
            }
        }
        return (store, registry, hub, follower)
    }
}

/// Lifts the soft limit on open files to the hard limit: every open stream holds a socket.
private func raiseFileLimit() {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}
