import Foundation
import HTMLRenderer
import ListModel
import ServerSupport
import Synchronization

/// Fans every committed change out to the `/events` subscribers of its list.
///
/// Changes flow one way: the registry hands each committed change (its own writes and other
/// instances' read back from the store) to `receive`, in version order per list, and goes on;
/// the hub publishes them off the writer's thread. The hub never calls the registry or the
/// store: it keeps the newest snapshot of every list it was told about, and a resuming
/// `view=json` subscriber brings the change log it needs in its request.
///
/// Per change: the `view=json` event is encoded once and shared by every JSON subscriber; the
/// `view=html` patch is computed once per distinct window and shared by the subscribers of
/// that window. A subscriber whose stream holds more than `maxBufferedBytes` unsent is
/// marked stale instead of being written to; the sweeper sends it a `reset` once it has
/// drained, or disconnects it after `staleTimeout`. Writers and other subscribers never wait
/// for a slow one.
///
/// Locks, always taken in this order (never the other way round): a list's `LiveChannel.state`,
/// then `directory`. The registry's write lock of a list (held around `receive`) comes before
/// `directory` and a channel's `inbox`, never before `state`. The directory lock is held only
/// for map look-ups and counters; the inbox, stream, row-markup and snapshot-cache locks are
/// leaves. A new subscriber's reset bytes are made under no lock (docs/LIVE.md, "Locking and cost").
package final class LiveHub: Sendable {
    package struct Limits: Sendable {
        package var maxSubscribers: Int
        package var maxBufferedBytes: Int
        package var staleTimeoutSeconds: Double
        /// Older versions kept per watched list so a `view=html` client can resume.
        package var recentVersions: Int
        /// How long a list's channel (and its recent versions) outlives its last subscriber.
        package var idleChannelSeconds: Double
        /// Changes waiting for publication per list beyond which updates are merged into one event.
        package var maxPendingChanges: Int
        /// Threads that write one event to a list's subscribers (at most one per 512 of them).
        package var fanOutThreads: Int
        /// Put with a dot in front of every subscription id (`--instance`), so that a load
        /// balancer can route `…/more` to the instance holding the stream.
        package var subscriptionPrefix: String?
        /// Live views (`sort`, `q`, filters) kept per list (`--max-views`).
        package var maxViews: Int
        /// The least time between two `presence` events of one stream.
        package var presenceIntervalSeconds: Double

        package init(
            maxSubscribers: Int = ServerDefaults.maxSubscribers, maxBufferedBytes: Int = 1 << 20,
            staleTimeoutSeconds: Double = ServerDefaults.staleTimeoutSeconds, recentVersions: Int = 32,
            idleChannelSeconds: Double = 60, maxPendingChanges: Int = 16,
            fanOutThreads: Int = max(1, ProcessInfo.processInfo.activeProcessorCount),
            subscriptionPrefix: String? = nil, maxViews: Int = ServerDefaults.maxViews,
            presenceIntervalSeconds: Double = 1
        ) {
            self.maxViews = maxViews
            self.presenceIntervalSeconds = presenceIntervalSeconds
            self.maxSubscribers = maxSubscribers
            self.maxBufferedBytes = maxBufferedBytes
            self.staleTimeoutSeconds = staleTimeoutSeconds
            self.recentVersions = recentVersions
            self.idleChannelSeconds = idleChannelSeconds
            self.maxPendingChanges = maxPendingChanges
            self.fanOutThreads = fanOutThreads
            self.subscriptionPrefix = subscriptionPrefix
        }
    }

    /// Which lists are watched, which channel each subscription is on, and the counters.
    package struct Directory {
        /// The newest snapshot of every list the hub was told about; channels open at it.
        package var lists: [String: ListSnapshot] = [:]
        package var channels: [String: LiveChannel] = [:]
        /// Subscription id → its channel.
        package var channelOfSubscription: [String: LiveChannel] = [:]
        /// Registered subscribers plus slots reserved by subscriptions being set up, so that
        /// `maxSubscribers` is never exceeded.
        package var subscriberCount = 0
        package var staleCount = 0
        /// This instance's viewers (registered subscribers) per list; lists without any are absent.
        package var viewers: [String: Int] = [:]
    }

    package let directory = Mutex(Directory())
    /// Other instances' viewers and what subscribers were told (a leaf lock; LiveHub+Presence.swift).
    package let presence = Mutex(PresenceBook())
    package let limits: Limits
    package let renderer: HTMLRenderer
    /// The index streams (`GET /events`).
    package let index: IndexFeed
    private let running = Atomic<Bool>(true)
    /// Live-view window patches made from the rows a write touched, and made by diffing whole
    /// windows (tests read them; docs/LIVE.md, "Live views").
    package let incrementalViewPatches = Atomic<Int>(0)
    package let diffedViewPatches = Atomic<Int>(0)
    /// Where changes are published, off the writers' threads (one list's changes are never
    /// published by two threads at once: they take its channel's lock).
    package let publisher = DispatchQueue(label: "list-server.publish", qos: .userInitiated, attributes: .concurrent)
    /// The threads a large fan-out's sends are shared with (`fanOutThreads` in all).
    package let fanOut: FanOutThreads

    package init(renderer: HTMLRenderer, limits: Limits = Limits()) {
        self.renderer = renderer
        self.limits = limits
        index = IndexFeed(maxBufferedBytes: limits.maxBufferedBytes)
        fanOut = FanOutThreads(helpers: limits.fanOutThreads - 1)
    }

    /// How many streams are open (or being opened).
    package var subscriberCount: Int { directory.withLock { $0.subscriberCount } }

    /// The open channel of a list, opened at the newest snapshot received when there is none;
    /// nil when the list does not exist.
    ///
    /// `receive` records a list's newest snapshot and finds its channel under this same lock:
    /// a channel opened at version V therefore gets every change after V, and none before.
    package func channel(for listID: String) -> LiveChannel? {
        directory.withLock { directory in
            if let channel = directory.channels[listID] { return channel }
            guard let snapshot = directory.lists[listID] else { return nil }
            let channel = LiveChannel(listID: listID, current: snapshot, openedAt: monotonicNanoseconds())
            directory.channels[listID] = channel
            return channel
        }
    }

    /// Opens `listID`'s channel ahead of a resuming subscriber, so that every version committed
    /// from now on is kept (`recent`) until the subscriber has started. An opened channel with no
    /// subscriber closes after `idleChannelSeconds` like any idle one.
    package func keepVersionsForResume(of listID: String) {
        _ = channel(for: listID)
    }

    /// Takes a channel out of the directory; called under the channel's lock as it closes.
    package func remove(_ channel: LiveChannel) {
        directory.withLock { directory in
            if directory.channels[channel.listID] === channel { directory.channels[channel.listID] = nil }
        }
    }

    /// Starts the thread that resets or drops stale subscribers and sends `presence` events.
    package func startSweeper() {
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                usleep(100_000)
                sweepStaleSubscribers()
                publishPresence()
            }
        }
        thread.name = "live-sweeper"
        thread.start()
    }

    package func stop() {
        running.store(false, ordering: .relaxed)
        fanOut.stop()
    }
}

/// Random ids for subscriptions: 128 bits, hex, after `prefix` and a dot when there is one.
package enum SubscriptionID {
    package static func make(prefix: String? = nil) -> String {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<2).map { _ in
            let word = generator.next() as UInt64
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
        return prefix.map { "\($0).\(random)" } ?? random
    }
}
