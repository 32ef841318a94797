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
///
/// Locks, always taken in this order (never the other way round): the registry's write lock of
/// a list (held around `publish`), then that list's `LiveChannel.state`, then `directory`. The
/// directory lock is held only for map look-ups and counters; the stream, row-markup and
/// snapshot-cache locks are leaves, and so are the registry's snapshot locks, read under the
/// directory lock (so `publish` must not be called under them). A new subscriber's reset bytes
/// and store reads are made under no lock (docs/LIVE.md, "Locking and cost").
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

    /// Which lists are watched, which channel each subscription is on, and the counters.
    struct Directory {
        var channels: [String: LiveChannel] = [:]
        /// Subscription id → its channel.
        var channelOfSubscription: [String: LiveChannel] = [:]
        /// Registered subscribers plus slots reserved by subscriptions being set up, so that
        /// `maxSubscribers` is never exceeded.
        var subscriberCount = 0
        var staleCount = 0
    }

    let directory = Mutex(Directory())
    let limits: Limits
    let renderer: HTMLRenderer
    private let registryLink = Mutex<ListRegistry?>(nil)
    private let store: any Store
    private let running = Atomic<Bool>(true)

    init(store: any Store, renderer: HTMLRenderer, limits: Limits = Limits()) {
        self.store = store
        self.renderer = renderer
        self.limits = limits
    }

    /// Completes the two-way link: the registry publishes to the hub, the hub reads snapshots.
    func connect(to registry: ListRegistry) {
        registryLink.withLock { $0 = registry }
    }

    /// The current snapshot of a list, read under the directory lock by `channel(for:)` so
    /// that no publish can slip between reading it and opening the channel.
    func registrySnapshot(_ id: String) -> ListSnapshot? {
        registryLink.withLock { $0 }?.snapshot(id: id)
    }

    /// The change log of the store, for resuming `view=json` streams.
    func storedChanges(of id: String, after version: Int) -> [StoredChange]? {
        try? store.changes(of: id, after: version)
    }

    /// How many streams are open (or being opened).
    var subscriberCount: Int { directory.withLock { $0.subscriberCount } }

    /// The open channel of a list, opened at the registry's snapshot when there is none; nil
    /// when the list does not exist.
    ///
    /// The registry sets a list's snapshot before it publishes the write, and a publish looks
    /// the channel up under this same lock: a channel opened at version V therefore gets every
    /// publish after V, and the publish of V itself finds it already at V and is skipped.
    func channel(for listID: String) -> LiveChannel? {
        directory.withLock { directory in
            if let channel = directory.channels[listID] { return channel }
            guard let snapshot = registrySnapshot(listID) else { return nil }
            let channel = LiveChannel(listID: listID, current: snapshot)
            directory.channels[listID] = channel
            return channel
        }
    }

    /// Takes a channel out of the directory; called under the channel's lock as it closes.
    func remove(_ channel: LiveChannel) {
        directory.withLock { directory in
            if directory.channels[channel.listID] === channel { directory.channels[channel.listID] = nil }
        }
    }

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
