import Foundation
import HTMLRenderer
import HTTPServer
import ListModel
import ListStore
import Synchronization

/// Fans every accepted write out to the `/events` subscribers of its list.
///
/// Per write: the `view=json` event is encoded once and shared by every JSON subscriber; the
/// `view=html` patch is computed once per distinct window and shared by the subscribers of
/// that window. A subscriber whose stream holds more than `maxBufferedBytes` unsent is
/// marked stale instead of being written to; the sweeper sends it a `reset` once it has
/// drained, or disconnects it after `staleTimeout`. Writers and other subscribers never wait
/// for a slow one.
final class LiveHub: Sendable {
    struct Limits: Sendable {
        var maxSubscribers = 20_000
        var maxBufferedBytes = 1 << 20
        var staleTimeoutSeconds = 30.0
        /// Older versions kept per watched list so a `view=html` client can resume.
        var recentVersions = 32
        /// How long a list's channel (and its recent versions) outlives its last subscriber.
        var idleChannelSeconds = 60.0
    }

    /// One watched list: the version subscribers are at, and who they are.
    struct Channel {
        var current: ListSnapshot
        var subscribers: [String: Subscriber] = [:]
        /// The versions before `current`, oldest first, for resuming `view=html` streams.
        var recent: [ListSnapshot] = []
        /// When the last subscriber left (monotonic nanoseconds); the channel is kept for
        /// `idleChannelSeconds` so that a lone client that reconnects can still resume.
        var idleSince: UInt64?
        /// The view of each subscribed window at `current`, so a write renders each once.
        var views: [LiveWindow: LiveView] = [:]
        /// Rendered rows, reused across versions.
        let rowMarkup = RowMarkupCache()

        /// The view of `window` at `current`, from the cache when it is there.
        mutating func currentView(_ window: LiveWindow, renderer: HTMLRenderer) -> LiveView {
            if let view = views[window] { return view }
            let view = LiveView(snapshot: current, window: window, renderer: renderer, rowMarkup: rowMarkup)
            views[window] = view
            return view
        }
    }

    struct State {
        var channels: [String: Channel] = [:]
        /// Subscription id → list id.
        var listOfSubscription: [String: String] = [:]
        var subscriberCount = 0
        var staleCount = 0
    }

    let state = Mutex(State())
    let limits: Limits
    let renderer: HTMLRenderer
    private let registryLink = Mutex<ListRegistry?>(nil)
    private let store: ListStore
    private let running = Atomic<Bool>(true)

    init(store: ListStore, renderer: HTMLRenderer, limits: Limits = Limits()) {
        self.store = store
        self.renderer = renderer
        self.limits = limits
    }

    /// Completes the two-way link: the registry publishes to the hub, the hub reads snapshots.
    func connect(to registry: ListRegistry) {
        registryLink.withLock { $0 = registry }
    }

    /// The current snapshot of a list, read under the hub's lock by `subscribe` so that no
    /// publish can slip between reading it and registering the subscriber.
    func registrySnapshot(_ id: String) -> ListSnapshot? {
        registryLink.withLock { $0 }?.snapshot(id: id)
    }

    /// The change log of the store, for resuming `view=json` streams.
    func storedChanges(of id: String, after version: Int) -> [StoredChange]? {
        try? store.changes(of: id, after: version)
    }

    /// How many streams are open.
    var subscriberCount: Int { state.withLock { $0.subscriberCount } }

    /// Starts the thread that resets or drops stale subscribers.
    func startSweeper() {
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                usleep(100_000)
                sweepStaleSubscribers()
            }
        }
        thread.name = "live-sweeper"
        thread.start()
    }

    func stop() { running.store(false, ordering: .relaxed) }
}

/// Random ids for subscriptions: 128 bits, hex.
enum SubscriptionID {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let word = generator.next() as UInt64
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
