import Dispatch
import ServerSupport

extension LiveHub {
    /// Takes one committed change and has it published to the list's subscribers on the
    /// publisher, once the writer's answer is on its way (a write's handler) or at once.
    /// Cheap (two short locks): the registry calls it under the list's write lock, in version
    /// order per list, before readers can see the new version, so a subscriber that read
    /// version V from the registry finds the hub at V or later (whoever takes the channel's
    /// lock publishes what waits first).
    package func receive(_ change: ListChange) {
        let channel = directory.withLock { directory -> LiveChannel? in
            directory.record(change)
            index.post(change)
            return directory.channels[change.id]
        }
        guard let channel, channel.post(change, mergingBeyond: limits.maxPendingChanges) else { return }
        let scheduleDrain = { @Sendable [self] in
            publisher.async { [self] in channel.state.withLock { state in publishPending(on: channel, state: &state) } }
        }
        // A write's publishing starts once its answer is on its way (`AfterAnswer`); anything
        // else's (a change from another instance, a test calling the router) at once.
        if !AfterAnswer.putOff(scheduleDrain) { scheduleDrain() }
    }

    /// Publishes every change waiting in `channel`'s inbox, oldest first. Called under the
    /// channel's lock by the drain and by everything else that takes it (subscribing, `…/more`,
    /// the sweeper), so whatever they do sees every change received before.
    package func publishPending(on channel: LiveChannel, state: inout LiveChannel.State) {
        while true {
            let changes = channel.takePending()
            if changes.isEmpty { return }
            for change in changes { publish(change, on: channel, state: &state) }
        }
    }

    /// Publishes, on the calling thread, every change received so far (tests use it to read
    /// streams at a known point; the server leaves it to the drains).
    package func publishReceived() {
        let channels = directory.withLock { Array($0.channels.values) }
        for channel in channels {
            channel.state.withLock { state in publishPending(on: channel, state: &state) }
        }
    }
}

extension LiveHub.Directory {
    /// Keeps the newest snapshot of the changed list (none once deleted). A deletion that
    /// arrives after the list was created again under the same id leaves the new list alone.
    package mutating func record(_ change: ListChange) {
        if let new = change.new {
            if let known = lists[change.id], known.version >= new.version { return }
            lists[change.id] = new
        } else if let known = lists[change.id], known.version <= change.old?.version ?? known.version {
            lists[change.id] = nil
        }
    }
}
