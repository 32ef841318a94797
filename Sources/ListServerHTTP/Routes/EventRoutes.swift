import HTTPServer
import ListModel
import ListService
import ServerSupport

/// The live stream `GET /lists/{id}/events` and `POST /lists/{id}/subscriptions/{sub}/more`
/// (API.md section 5, docs/LIVE.md).
package enum EventRoutes {
    /// The largest window a subscription may open with `limit`.
    package static let maxWindowLimit = 100_000

    package static func register(on router: inout Router, context: ServerContext) {
        router.get("/lists/{id}/events") { request in try events(request, context) }
        router.post("/lists/{id}/subscriptions/{sub}/more") { request in try more(request, context) }
    }

    package static func events(_ request: Request, _ context: ServerContext) throws -> Response {
        let id = try ListID.validated(request.parameter("id"))
        let grantedBy = try context.authorization.requireRead(request, list: id)
        var subscribe = try subscribeRequest(request, listID: id)
        if let query = try ViewRequest.query(request, columns: try context.registry.existing(id: id).document.columns) {
            // A live view (API.md section 9): its cursors are `ViewCursor`s of this query, its
            // resumes come from the channel's recent versions (docs/LIVE.md, "Live views").
            try bindToView(&subscribe, query: query, request)
            guard context.hub.hasRoom(forView: query, of: id) else {
                throw HTTPError(
                    .serviceUnavailable,
                    "The list has \(context.hub.limits.maxViews) live views, each with subscribers; try again later.",
                    headers: ["Retry-After": "5"])
            }
        }
        if subscribe.view == .json, subscribe.since != nil, subscribe.query == nil {
            // Before the change log is read: the versions committed between that read and the
            // stream's start are then kept by the channel, and the resume needs no reset.
            context.hub.keepVersionsForResume(of: id)
        }
        var snapshot = try context.registry.existing(id: id)
        if let since = subscribe.since, since > snapshot.version {
            // The client saw a newer version (on another instance): catch up first, so that the
            // stream never takes it back.
            try context.registry.catchUp(id: id)
            guard let caughtUp = context.registry.snapshot(id: id) else { throw context.registry.missing(id: id) }
            snapshot = caughtUp
        }
        if subscribe.view == .json, subscribe.query == nil, let since = subscribe.since, since < snapshot.version {
            subscribe.logged = context.registry.changeLog(of: id, after: since)
        }
        let headers = try EventRoutes.streamHeaders(request, context)
        let grant = try context.authorization.streamGrant(request, list: id, grantedBy: grantedBy)
        let response = { @Sendable (subscribe: LiveHub.SubscribeRequest) in
            Response.stream(headers: headers, heartbeat: ServerSentEvent.heartbeat) { stream in
                if let grant { context.streamGrants.track(stream, grant) }
                context.hub.attach(subscribe, to: stream)
            }
        }
        // A live view the list's channel does not have yet, of a large list: its sort is made off
        // the connection's thread, in a turn as a page's would be, before the stream starts.
        if let query = subscribe.query, snapshot.list.rowCount >= ServerDefaults.offThreadRows,
            !context.hub.hasLiveView(query, of: id)
        {
            return ViewRequest.inTurn(snapshot, query) { [subscribe] in
                var prepared = subscribe
                prepared.prepared = context.hub.prepareView(for: subscribe)
                return response(prepared)
            }
        }
        // The whole document of a large list, not yet serialized at this version, is made off
        // the connection's thread before the stream starts (its `reset` then reads it back).
        if subscribe.view == .json, subscribe.query == nil, subscribe.since == nil, snapshot.list.rowCount >= ServerDefaults.offThreadRows,
            !snapshot.cache.hasDocumentJSON
        {
            return .offThread { [snapshot, subscribe] in
                _ = snapshot.documentJSON
                return response(subscribe)
            }
        }
        return response(subscribe)
    }

    /// Reads `view`, `limit` or `until`, and `Last-Event-ID` or else `since`.
    package static func subscribeRequest(_ request: Request, listID: String) throws -> LiveHub.SubscribeRequest {
        var view: Subscriber.View
        switch request.query("view") ?? "json" {
        case "json": view = .json
        case "html": view = .html
        case let other: throw HTTPError(.badRequest, "view must be json or html, not \"\(other)\".")
        }
        // `view=json` is the whole document unless a window is asked for.
        if view == .json && (request.query("limit") != nil || request.query("until") != nil) { view = .jsonWindow }
        let window: LiveHub.SubscribeRequest.WindowSpec
        switch (request.query("limit"), request.query("until")) {
        case (let limit?, nil):
            guard let count = Int(limit), (0...maxWindowLimit).contains(count) else {
                throw HTTPError(.badRequest, "limit must be a whole number from 0 to \(maxWindowLimit).")
            }
            window = .limit(count)
        case (nil, let until?):
            // A view's cursor is read once the view is known (`bindToView`).
            window =
                request.query("sort") == nil && request.query("sort_desc") == nil && request.query("q") == nil
                    && !request.queryItems.contains { $0.name.hasPrefix("filter.") }
                ? .until(try Cursor(decoding: until)) : .limit(0)
        case (nil, nil):
            window = .limit(PageQuery.defaultLimit)
        default:
            throw HTTPError(.badRequest, "Give limit or until, not both.")
        }
        // Last-Event-ID wins: a browser reconnecting by itself repeats the URL (with the page's
        // `since`) but names the last event it really received.
        let sinceText = request.headers["Last-Event-ID"].flatMap { $0.isEmpty ? nil : $0 } ?? request.query("since")
        var since: Int?
        if let sinceText, !sinceText.isEmpty {
            guard let version = Int(sinceText), version >= 0 else {
                throw HTTPError(.badRequest, "since (or Last-Event-ID) must be a version number.")
            }
            since = version
        }
        return LiveHub.SubscribeRequest(listID: listID, view: view, window: window, since: since)
    }

    /// Makes `subscribe` a stream of the view `query`: `until` must be a cursor of this view (400
    /// otherwise, as for pages of views).
    static func bindToView(_ subscribe: inout LiveHub.SubscribeRequest, query: ListQuery, _ request: Request) throws {
        var window = subscribe.window
        if let text = request.query("until") {
            do {
                let cursor = try ViewCursor(decoding: text)
                guard cursor.fingerprint == query.fingerprint else { throw CursorError.otherView }
                window = .viewUntil(cursor)
            } catch let error as CursorError {
                throw HTTPError(.badRequest, "until: \(error.description).")
            }
        }
        subscribe = LiveHub.SubscribeRequest(
            listID: subscribe.listID, view: subscribe.view, window: window,
            since: subscribe.since, query: query)
    }

    /// `POST …/subscriptions/{sub}/more?limit=N`: 202; the rows arrive in the stream.
    package static func more(_ request: Request, _ context: ServerContext) throws -> Response {
        let id = try ListID.validated(request.parameter("id"))
        try context.authorization.requireRead(request, list: id)
        let subscription = try request.parameter("sub")
        // A deleted list's streams have ended: its subscriptions answer 410 as the list does.
        if context.registry.snapshot(id: id) == nil, case .gone(let id, let version) = context.registry.missing(id: id) {
            throw RegistryError.gone(id: id, version: version)
        }
        let limit = try PageQuery(request).limit
        let (rows, more) = try context.hub.extend(subscription: subscription, listID: id, by: limit)
        let body: JSONValue = .object(
            JSONObject([
                ("subscription", .string(subscription)), ("rows", .number(Double(rows))), ("more", .bool(more)),
            ]))
        return .json(body.serialized(), status: .accepted)
    }
}

extension EventRoutes {
    /// The headers of a `text/event-stream` answer (list streams and the live index alike), once
    /// the server has room for one more stream.
    /// - Throws: 503 with `Retry-After` when the server holds `maxSubscribers` streams.
    package static func streamHeaders(_ request: Request, _ context: ServerContext) throws -> HTTPHeaders {
        guard context.hub.subscriberCount < context.hub.limits.maxSubscribers else {
            throw HTTPError(
                .serviceUnavailable, "The server holds its limit of \(context.hub.limits.maxSubscribers) streams; try again later.",
                headers: ["Retry-After": "5"])
        }
        return [
            "Content-Type": "text/event-stream",
            "Cache-Control": context.authorization.cacheControl(request),
            "X-Accel-Buffering": "no",
        ]
    }
}
