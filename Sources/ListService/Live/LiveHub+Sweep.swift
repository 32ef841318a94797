import ListModel
import ServerSupport

extension LiveHub {
    /// A stale subscriber whose stream has drained, with the window its reset is made for.
    private struct DrainedSubscriber {
        package let subscriber: Subscriber
        package let window: LiveWindow
    }

    /// Resets stale subscribers that have drained, disconnects those stale for too long, and
    /// closes channels that have had no subscriber for `idleChannelSeconds`. Takes one
    /// channel's lock at a time, and makes the resets' bytes outside it.
    /// - Parameter beforeWritingResets: runs after the resets are made, before they are
    ///   written (tests land a write there).
    package func sweepStaleSubscribers(beforeWritingResets: () -> Void = {}) {
        let (channels, anyStale) = directory.withLock { (Array($0.channels.values), $0.staleCount > 0) }
        for channel in channels {
            guard let (at, drained) = sweepIdleOrTimedOut(channel, anyStale: anyStale), !drained.isEmpty else { continue }
            // A live view's reset is made under the lock below (its view is the channel's).
            let resets = drained.map {
                $0.subscriber.query != nil
                    ? []
                    : resetEvent(view: $0.subscriber.view, subscription: $0.subscriber.id, window: $0.window, at: at, on: channel)
            }
            beforeWritingResets()
            channel.state.withLock { state in
                publishPending(on: channel, state: &state)
                guard !state.closed else { return }
                for (entry, reset) in zip(drained, resets) {
                    let subscriber = entry.subscriber
                    guard subscriber.stale, state.subscribers[subscriber.id] === subscriber else { continue }
                    // A write or `…/more` came meanwhile: the reset is made again, for what it must show.
                    let event =
                        subscriber.query != nil
                        ? viewReset(for: subscriber, state: &state, channel: channel) ?? []
                        : state.current.version == at.version && subscriber.window == entry.window
                            ? reset
                            : resetEvent(
                                view: subscriber.view, subscription: subscriber.id, window: subscriber.window,
                                at: state.current, on: channel)
                    subscriber.stream.write(event + [presenceEvent(for: subscriber)])
                    subscriber.version = state.current.version
                    subscriber.stale = false
                    directory.withLock { $0.staleCount -= 1 }
                }
            }
        }
    }

    /// Closes `channel` if it has been idle too long (nil then), cancels its subscribers stale
    /// for too long, and returns its version and those that are stale but have drained.
    private func sweepIdleOrTimedOut(_ channel: LiveChannel, anyStale: Bool) -> (ListSnapshot, [DrainedSubscriber])? {
        let idleLimit = UInt64(limits.idleChannelSeconds * 1e9)
        return channel.state.withLock { state in
            publishPending(on: channel, state: &state)
            guard !state.closed else { return nil }
            let now = monotonicNanoseconds()
            if state.subscribers.isEmpty, let idleSince = state.idleSince, now - idleSince > idleLimit {
                state.closed = true
                remove(channel)
                return nil
            }
            var drained: [DrainedSubscriber] = []
            if anyStale {
                for subscriber in state.subscribers.values where subscriber.stale {
                    // Drained: the client has received everything (nothing held here, nothing
                    // unacknowledged in the socket). A client that stopped reading never is,
                    // so it is not sent a reset while it is stalled.
                    if subscriber.stream.unsentByteCount == 0 {
                        drained.append(DrainedSubscriber(subscriber: subscriber, window: subscriber.window))
                    } else if Double(now - subscriber.staleSince) / 1e9 > limits.staleTimeoutSeconds {
                        subscriber.stream.cancel()
                    }
                }
            }
            return (state.current, drained)
        }
    }
}
