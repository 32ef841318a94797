import ServerSupport

// Presence (docs/LIVE.md, "Presence"): how many streams of a list are open, on this instance
// and (with PostgreSQL) on the others. A stream is told the count after its first events, and
// again when it changes, at most once per `presenceIntervalSeconds`; the event's bytes are
// made once per list and count, and writes never do any of this work.

extension LiveHub {
    /// This instance's viewers per list, for the other instances (`PresenceExchange`).
    package func localViewers() -> [String: Int] { directory.withLock { $0.viewers } }

    /// The other instances' viewers per list (`PresenceExchange`); streams hear of a change at
    /// the next `publishPresence`.
    package func setRemoteViewers(_ counts: [String: Int]) { presence.withLock { $0.setRemote(counts) } }

    /// The count a stream of `listID` is told now.
    package func viewerCount(of listID: String) -> Int {
        let local = directory.withLock { $0.viewers[listID] ?? 0 }
        return presence.withLock { $0.total(of: listID, local: local) }
    }

    /// Counts a subscriber being registered on `channel` (and files its subscription id) and
    /// returns the `presence` event that follows its first events. Under the channel's lock.
    func join(_ subscriber: Subscriber, on channel: LiveChannel) -> SharedBytes {
        directory.withLock { directory in
            directory.channelOfSubscription[subscriber.id] = channel
            directory.viewers[subscriber.listID, default: 0] += 1
        }
        return presenceEvent(for: subscriber)
    }

    /// The `presence` event of a stream that starts over (its first events, a reset), noted as
    /// sent to it. Under its channel's lock.
    func presenceEvent(for subscriber: Subscriber) -> SharedBytes {
        let count = viewerCount(of: subscriber.listID)
        presence.withLock { $0.toldOne(subscriber.listID) }
        subscriber.presenceSent = count
        subscriber.presenceSentAt = monotonicNanoseconds()
        return ServerSentEvent.presence(viewers: count)
    }

    /// Tells the subscribers of every list whose count changed (the sweeper calls it ten times
    /// a second): one event per list, made once, to each stream not told this count, unless it
    /// was told one less than `presenceIntervalSeconds` ago (it is told at a later call then).
    /// Stale streams are skipped: their reset carries the count. Takes one channel's lock at a
    /// time, and only those of lists whose count changed or whose streams are owed it.
    package func publishPresence(now: UInt64 = monotonicNanoseconds()) {
        let (local, channels) = directory.withLock { ($0.viewers, $0.channels) }
        let due = presence.withLock { $0.due(local: local) }
        let interval = UInt64(limits.presenceIntervalSeconds * 1e9)
        for (listID, total) in due {
            guard let channel = channels[listID] else { continue }
            let complete = channel.state.withLock { state -> Bool in
                guard !state.closed else { return true }
                let event = ServerSentEvent.presence(viewers: total)
                var deliveries: [Delivery] = []
                var waiting = false
                for subscriber in state.subscribers.values where !subscriber.stale && subscriber.presenceSent != total {
                    // Told after `now` was read (it registered meanwhile) counts as told just now.
                    let recent = now < subscriber.presenceSentAt || now - subscriber.presenceSentAt < interval
                    if subscriber.presenceSent != nil && recent {
                        waiting = true
                    } else {
                        deliveries.append(Delivery(subscriber: subscriber, stream: subscriber.stream, event: event))
                    }
                }
                let behind = Set(deliver(deliveries).map { ObjectIdentifier($0) })
                for delivery in deliveries where !behind.contains(ObjectIdentifier(delivery.subscriber)) {
                    delivery.subscriber.presenceSent = total
                    delivery.subscriber.presenceSentAt = now
                }
                return !waiting && behind.isEmpty
            }
            presence.withLock { $0.told(listID, total: total, complete: complete) }
        }
    }
}
