import Dispatch
import ListModel
import ServerSupport
import Synchronization

/// The live index (`GET /events`, docs/LIVE.md, "The live index"): one stream per open
/// index, told of every list created, changed (title, rows, version) or deleted, on this
/// instance or (through the registry's catch-ups) on another one.
///
/// The hub hands it every change under its directory lock (`post`), so a change is either in
/// the lists a new subscriber's `reset` is made from or numbered after it, never lost between.
/// Changes wait in `pending`, one per list (a burst of writes to a list becomes one event), and
/// a serial queue writes them out; that queue also starts each subscriber, so its `reset` goes
/// out before any event. Each subscriber sees only the lists it may read. One whose stream holds
/// more than `maxBufferedBytes` unsent is ended: its client reconnects and gets a new `reset`.
package final class IndexFeed: Sendable {
    /// A change waiting to go out: the list's newest snapshot, or nil once it is deleted.
    struct Pending {
        let sequence: UInt64
        let id: String
        let snapshot: ListSnapshot?
        let deletedAt: Int
    }

    /// One event written to subscribers, with the sequence number of the change it reports.
    struct Event {
        let sequence: UInt64
        let id: String
        let bytes: SharedBytes
    }

    /// One open index stream. `backlog` is only touched on the feed's queue: it collects the
    /// events of a subscriber whose `reset` has not gone out yet (nil once it has).
    final class IndexSubscriber: @unchecked Sendable {
        let stream: any SubscriberStream
        let readable: @Sendable (String) -> Bool
        /// The sequence number its `reset` is up to date with.
        let startedAfter: UInt64
        var backlog: [Event]? = []

        init(stream: any SubscriberStream, readable: @escaping @Sendable (String) -> Bool, startedAfter: UInt64) {
            self.stream = stream
            self.readable = readable
            self.startedAfter = startedAfter
        }
    }

    struct State {
        var sequence: UInt64 = 0
        var pending: [String: Pending] = [:]
        var drainScheduled = false
        var subscribers: [ObjectIdentifier: IndexSubscriber] = [:]
    }

    let state = Mutex(State())
    let queue = DispatchQueue(label: "list-server.index", qos: .userInitiated)
    let maxBufferedBytes: Int
    /// Events kept for a subscriber whose `reset` is still being made; past it, it is ended.
    static let maxBacklog = 10_000

    package init(maxBufferedBytes: Int) { self.maxBufferedBytes = maxBufferedBytes }

    /// How many index streams are open.
    package var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Queues a committed change for the index streams (nothing when none is open). Quick: the
    /// hub calls it under its directory lock.
    func post(_ change: ListChange) {
        let schedule = state.withLock { state -> Bool in
            guard !state.subscribers.isEmpty else { return false }
            state.sequence += 1
            state.pending[change.id] = Pending(
                sequence: state.sequence, id: change.id, snapshot: change.new,
                deletedAt: (change.old?.version ?? 0) + 1)
            if state.drainScheduled { return false }
            state.drainScheduled = true
            return true
        }
        if schedule { queue.async { self.drain() } }
    }

    /// Adds a subscriber; returns it with the sequence number of the last change posted, which its
    /// `reset` must show. Called under the hub's directory lock, with the lists copied there.
    func register(_ stream: any SubscriberStream, readable: @escaping @Sendable (String) -> Bool) -> IndexSubscriber {
        state.withLock { state in
            let subscriber = IndexSubscriber(stream: stream, readable: readable, startedAfter: state.sequence)
            state.subscribers[ObjectIdentifier(subscriber)] = subscriber
            return subscriber
        }
    }

    /// Writes a subscriber's first events, then what it missed while they were made.
    func start(_ subscriber: IndexSubscriber, with first: [SharedBytes]) {
        queue.async { [self] in
            subscriber.stream.write(first)
            let backlog = subscriber.backlog ?? []
            subscriber.backlog = nil
            send(backlog, to: subscriber)
        }
    }

    /// Forgets a subscriber whose stream ended; true when it was registered.
    func remove(_ subscriber: IndexSubscriber) -> Bool {
        state.withLock { $0.subscribers.removeValue(forKey: ObjectIdentifier(subscriber)) != nil }
    }

    /// Writes every pending change to the subscribers that may read its list, oldest first.
    private func drain() {
        while true {
            let taken = state.withLock { state -> ([Pending], [IndexSubscriber])? in
                if state.pending.isEmpty {
                    state.drainScheduled = false
                    return nil
                }
                defer { state.pending = [:] }
                return (state.pending.values.sorted { $0.sequence < $1.sequence }, Array(state.subscribers.values))
            }
            guard let (pending, subscribers) = taken else { return }
            let events = pending.map { Event(sequence: $0.sequence, id: $0.id, bytes: Self.event(for: $0)) }
            for subscriber in subscribers {
                let mine = events.filter { $0.sequence > subscriber.startedAfter && subscriber.readable($0.id) }
                guard !mine.isEmpty else { continue }
                if subscriber.backlog != nil {
                    subscriber.backlog! += mine
                    if subscriber.backlog!.count > Self.maxBacklog { subscriber.stream.cancel() }
                } else {
                    send(mine, to: subscriber)
                }
            }
        }
    }

    /// Writes events to a started subscriber; ends its stream when it falls too far behind.
    private func send(_ events: [Event], to subscriber: IndexSubscriber) {
        for event in events where subscriber.stream.write(event.bytes, ifQueuedAtMost: maxBufferedBytes) != .written {
            subscriber.stream.cancel()
            return
        }
    }

    /// `event: list` with the list's line of the index, or `event: deleted` with its id and the
    /// version it was deleted at.
    static func event(for pending: Pending) -> SharedBytes {
        guard let snapshot = pending.snapshot else {
            let data = JSONValue.object(
                JSONObject([("id", .string(pending.id)), ("version", .number(Double(pending.deletedAt)))]))
            return ServerSentEvent.encode("deleted", id: nil, data: data.serialized())
        }
        return ServerSentEvent.encode("list", id: nil, data: summary(snapshot).serialized())
    }

    /// A list's line of the index, as `GET /lists` answers it.
    package static func summary(_ snapshot: ListSnapshot) -> JSONValue {
        [
            "id": .string(snapshot.id),
            "title": .string(snapshot.document.title),
            "rows": .number(Double(snapshot.list.rowCount)),
            "version": .number(Double(snapshot.version)),
        ]
    }
}
