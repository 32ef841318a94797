import ListModel
import ServerSupport

extension LiveHub {
    /// What an index stream (`GET /events`) asked for: the page it shows (as `GET /lists`
    /// pages: ids after `after`, at most `limit`) and which lists its reader may see.
    package struct IndexRequest: Sendable {
        package let after: String?
        package let limit: Int
        package let readable: @Sendable (String) -> Bool

        package init(after: String?, limit: Int, readable: @escaping @Sendable (String) -> Bool) {
            self.after = after
            self.limit = limit
            self.readable = readable
        }
    }

    /// Registers an index stream and writes its first events: a `reset`
    /// with the page as it is now (`{"lists":[…],"next":…}`, as `GET /lists` answers), then an
    /// event per list created, changed or deleted after it (`IndexFeed`). Counts against
    /// `maxSubscribers`; ends the stream at once when the server holds that many.
    package func attachIndex(_ request: IndexRequest, to stream: any SubscriberStream) {
        let registered = directory.withLock { directory -> (IndexFeed.IndexSubscriber, [String: ListSnapshot])? in
            guard directory.subscriberCount < limits.maxSubscribers else { return nil }
            directory.subscriberCount += 1
            return (index.register(stream, readable: request.readable), directory.lists)
        }
        guard let (subscriber, lists) = registered else {
            stream.cancel()
            return
        }
        stream.onTermination { [self] in
            if index.remove(subscriber) { directory.withLock { $0.subscriberCount -= 1 } }
        }
        index.start(subscriber, with: [Self.indexReset(request, lists: lists)])
    }

    /// `event: reset` with the page of the index `request` shows, made from `lists`, and the
    /// stream's `retry: 1000` (wait a second before reconnecting).
    static func indexReset(_ request: IndexRequest, lists: [String: ListSnapshot]) -> SharedBytes {
        var ids = lists.keys.filter { id in request.after.map { id > $0 } ?? true && request.readable(id) }
        ids.sort()
        let page = ids.prefix(request.limit)
        let next: JSONValue = ids.count > request.limit ? .string(page.last!) : .null
        let body = JSONValue.object(
            JSONObject([("lists", .array(page.map { IndexFeed.summary(lists[$0]!) })), ("next", next)]))
        var bytes = Array("event: reset\nretry: 1000\ndata: ".utf8)
        body.serialize(into: &bytes)
        bytes += [0x0A, 0x0A]
        return SharedBytes(bytes)
    }
}
