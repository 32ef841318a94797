import ListModel
import ListStore
import ServerSupport

extension LiveHub {
    /// Where a new subscriber starts: read from its channel under the channel's lock, then
    /// used under no lock to make its first events.
    package struct StartingPoint {
        /// The channel's current version: the subscriber's first events bring it there.
        package let current: ListSnapshot
        /// The version the client holds, when the channel still keeps it (`view=html` resumes).
        package let base: ListSnapshot?
        package let window: LiveWindow
        /// The channel's view of `window` at `current`, when it has one.
        package let view: LiveView?
        /// For a `view=json` resume: the patches from the client's version to `current`, from
        /// the change log the request brought (and the channel's newer ones); nil: a reset.
        package let resume: [ResumeStep]?
        /// For a windowed `view=json`: the channel's document of `window` at `current`, if any.
        package var jsonView: JSONWindowView? = nil
    }

    /// One patch of a `view=json` resume.
    package enum ResumeStep {
        /// From the store's change log.
        case logged(StoredChange)
        /// Kept by the channel: the patch to `version` from the version before.
        case kept(JSONPatch, version: Int)

        package var version: Int {
            switch self {
            case .logged(let change): return change.version
            case .kept(_, let version): return version
            }
        }

        package var event: SharedBytes {
            switch self {
            case .logged(let change): return ServerSentEvent.patch(serialized: change.patch, version: change.version)
            case .kept(let patch, let version): return ServerSentEvent.patch(patch, version: version)
            }
        }
    }

    /// A new subscriber's first events, made for one version of its list.
    package struct FirstEvents {
        package let version: Int
        package let window: LiveWindow
        package var events: [SharedBytes] = []
        /// The `view=html` view of the window at `version`, for the channel to keep.
        package var view: LiveView?
        /// The windowed `view=json` document at `version`, for the channel to keep.
        package var jsonView: JSONWindowView?
    }

    /// The starting point of `request` on a channel in `state`. Cheap: no rendering.
    package func startingPoint(of request: SubscribeRequest, state: LiveChannel.State) -> StartingPoint {
        let current = state.current
        let base = request.since.flatMap { since in state.recent.first { $0.snapshot.version == since }?.snapshot }
        let window: LiveWindow
        switch request.window {
        case .limit(let limit): window = LiveWindow(limit: limit, in: (base ?? current).list)
        case .until(let cursor): window = .through(cursor)
        case .viewUntil: window = .empty  // live views start in `attachView`
        }
        return StartingPoint(
            current: current, base: base, window: window,
            view: request.view == .html ? state.views[window] : nil,
            resume: request.view == .json ? jsonResume(of: request, state: state) : nil,
            jsonView: request.view == .jsonWindow ? state.jsonViews[window] : nil)
    }

    /// The patches that take a `view=json` client at `since` to the channel's current version:
    /// the logged ones the request brought, followed by the channel's own from where the log
    /// ends (writes after the log was read); nil when they do not reach (a reset then), and for
    /// a client from before the list existed (`since` 0, or before the list's creation, whose
    /// logged patch replaces the whole document): it gets the list as a `reset`, as a new client.
    private func jsonResume(of request: SubscribeRequest, state: LiveChannel.State) -> [ResumeStep]? {
        guard let since = request.since, since >= 1, since < state.current.version else { return nil }
        var steps: [ResumeStep] = []
        for change in request.logged ?? [] where change.version > since && change.version <= state.current.version {
            guard change.version == (steps.last?.version ?? since) + 1, !Self.createsList(change) else { return nil }
            steps.append(.logged(change))
        }
        // With no logged change past `since` (the log was read before the writes that came
        // since), the channel's own versions carry the client from `since` itself.
        let reached = steps.last?.version ?? since
        if reached == state.current.version { return steps }
        guard let index = state.recent.firstIndex(where: { $0.snapshot.version == reached }),
            let kept = keptSteps(from: index, state: state)
        else { return nil }
        return steps + kept
    }

    /// Whether a logged change is a list's creation: its patch replaces the root (`""`).
    private static func createsList(_ change: StoredChange) -> Bool {
        change.patch.starts(with: creationPatchPrefix)
    }

    private static let creationPatchPrefix = Array(#"[{"op":"replace","path":"","#.utf8)

    /// The channel's patches from `recent[index]` to its current version, nil when one is missing
    /// (a list created again in between).
    package func keptSteps(from index: Int, state: LiveChannel.State) -> [ResumeStep]? {
        var steps: [ResumeStep] = []
        for position in index..<state.recent.count {
            guard let patch = state.recent[position].patchToNext else { return nil }
            let next = position + 1 < state.recent.count ? state.recent[position + 1].snapshot.version : state.current.version
            steps.append(.kept(patch, version: next))
        }
        return steps
    }

    /// The reset, or the patches that bring a client at `since` to `start.current`. The costly
    /// part of subscribing (serializing a document, rendering a window, encoding patches), so
    /// `attach` runs it outside the channel's lock when it can.
    package func firstEvents(
        for request: SubscribeRequest, subscription id: String, from start: StartingPoint,
        on channel: LiveChannel
    ) -> FirstEvents {
        let current = start.current
        var first = FirstEvents(version: current.version, window: start.window)
        if let since = request.since, since == current.version { return first }
        switch request.view {
        case .json:
            if let resume = start.resume {
                first.events = resume.map(\.event)
            } else {
                first.events = resetEvent(view: .json, subscription: id, window: start.window, at: current, on: channel)
            }
        case .jsonWindow:
            let view = start.jsonView ?? JSONWindowView(snapshot: current, window: start.window)
            first.jsonView = view
            if let base = start.base {
                var patch = JSONWindowView.patch(from: JSONWindowView(snapshot: base, window: start.window), to: view)
                // As for `view=html`: a window named by `limit=` learns its `until` from the first patch.
                Self.statingUntil(&patch, view.until)
                first.events = [ServerSentEvent.patch(patch, version: current.version)]
            } else {
                let document = channel.resetDocuments.document(version: current.version, view: .jsonWindow, window: start.window) {
                    view.json.serialized()
                }
                first.events = ServerSentEvent.reset(version: current.version, subscription: id, document: document)
            }
        case .html:
            let view =
                start.view
                ?? LiveView(snapshot: current, window: start.window, renderer: renderer, rowMarkup: channel.rowMarkup)
            first.view = view
            if let base = start.base {
                var patch = LiveView.patch(
                    from: LiveView(snapshot: base, window: start.window, renderer: renderer, rowMarkup: channel.rowMarkup),
                    to: view)
                // The client may have named its window by row count (`limit=`): its `until` can
                // differ from the window's, so the first patch always states it.
                Self.statingUntil(&patch, view.until)
                first.events = [ServerSentEvent.patch(patch, version: current.version)]
            } else {
                let document = channel.resetDocuments.document(version: current.version, view: .html, window: start.window) {
                    view.json.serialized()
                }
                first.events = ServerSentEvent.reset(version: current.version, subscription: id, document: document)
            }
        }
        return first
    }

    /// A `reset` for a subscriber's view of `window` at `snapshot`: its own head around the
    /// document of that version and window, made once and shared (`ResetDocumentCache`; for
    /// `view=html` the channel's row cache spares rendering rows already rendered).
    package func resetEvent(
        view: Subscriber.View, subscription id: String, window: LiveWindow, at snapshot: ListSnapshot,
        on channel: LiveChannel
    ) -> [SharedBytes] {
        let document: SharedBytes
        switch view {
        case .json:
            document = channel.resetDocuments.document(version: snapshot.version, view: view, window: nil) { snapshot.documentJSON }
        case .jsonWindow:
            document = channel.resetDocuments.document(version: snapshot.version, view: view, window: window) {
                JSONWindowView(snapshot: snapshot, window: window).json.serialized()
            }
        case .html:
            document = channel.resetDocuments.document(version: snapshot.version, view: view, window: window) {
                LiveView(snapshot: snapshot, window: window, renderer: renderer, rowMarkup: channel.rowMarkup).json.serialized()
            }
        }
        return ServerSentEvent.reset(version: snapshot.version, subscription: id, document: document)
    }

    /// Adds a `replace` of `/until` to a resume's patch unless it already sets it (or the root).
    package static func statingUntil(_ patch: inout JSONPatch, _ value: String?) {
        let until = JSONPointer(tokens: ["until"])
        if !patch.operations.contains(where: { $0.path == until || $0.path == .root }) {
            patch.operations.append(.replace(path: until, value: value.map(JSONValue.string) ?? .null))
        }
    }
}
