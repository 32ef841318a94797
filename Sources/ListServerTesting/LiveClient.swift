import HTTPServer
import ListModel
import ListService

/// What a `LiveClient` found wrong in the stream it read (the test fails with it).
package struct LiveClientError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

/// Throws `LiveClientError(message)` unless `condition` holds.
private func expect(_ condition: Bool, _ message: String) throws {
    if !condition { throw LiveClientError(message) }
}

/// One parsed Server-Sent Event.
package struct SentEvent {
    package init() {}

    package var name: String?
    package var id: Int?
    package var data: [UInt8]?
    package var retry: Int?
}

/// The client end of one stream: it parses the bytes the hub wrote and keeps the document.
package final class LiveClient: @unchecked Sendable {
    package let listID: String
    package let view: Subscriber.View
    package let stream = ResponseStream(heartbeat: nil)
    package var doc: JSONValue?
    package var version: Int?
    package var subscription: String?
    /// Every event but `presence`, in order.
    package var events: [SentEvent] = []
    /// The viewer counts of the `presence` events, in order, each with how many other events
    /// came before it (`events.count` then).
    package var presence: [(afterEvents: Int, viewers: Int)] = []
    package var deleted = false
    /// Bytes read but not yet parsed.
    private var unparsed: [UInt8] = []

    package init(listID: String, view: Subscriber.View, doc: JSONValue?, version: Int?) {
        self.listID = listID
        self.view = view
        self.doc = doc
        self.version = version
    }

    /// Everything buffered in the stream, as the connection would send it.
    package func drain() -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { stream.read(into: $0.baseAddress!, max: $0.count) }
            if count <= 0 { return out }
            out += buffer[0..<count]
        }
    }

    /// Reads what arrived without parsing it (safe off the test's task); returns the
    /// subscription id once it has arrived.
    @discardableResult
    package func collect() -> String? {
        unparsed += drain()
        let text = String(decoding: unparsed, as: UTF8.self)
        guard let event = text.range(of: "event: subscription\n"),
            let range = text[event.upperBound...].range(of: "data: ")
        else { return nil }
        let line = text[range.upperBound...].prefix { $0 != "\n" }
        return (try? JSONValue(parsing: String(line)))?["/subscription"]?.stringValue
    }

    /// Parses and applies the events that arrived since the last call.
    package func receive() throws -> [SentEvent] {
        collect()
        let parsed = try Self.parse(unparsed)
        unparsed = []
        for event in parsed {
            if event.name == "presence" {
                try expect(event.id == nil, "a presence event has no id")
                try expect(version != nil, "a presence event comes after the reset or the resumed patches")
                let viewers = try JSONValue(parsing: event.data!)["/viewers"]?.numberValue
                presence.append((events.count, Int(try viewers ?? { throw LiveClientError("presence without viewers") }())))
                continue
            }
            events.append(event)
            switch event.name {
            case "subscription":
                subscription = try JSONValue(parsing: event.data!)["/subscription"]?.stringValue
            case "reset":
                let data = try JSONValue(parsing: event.data!)
                try expect(data["/version"]?.numberValue.map { Int($0) } == event.id, "a reset's version is its id")
                try expect(data["/subscription"]?.stringValue == subscription, "a reset names the subscription")
                doc = data["/doc"]
                version = event.id
            case "patch":
                guard let id = event.id else { throw LiveClientError("a patch without an id") }
                guard let current = version, let before = doc else { throw LiveClientError("a patch before any reset or since") }
                try expect(id >= current, "patch ids never go back")
                if view == .json { try expect(id > current, "a json patch is never sent twice") }
                doc = try JSONPatch(parsing: event.data!).apply(to: before)
                version = id
            case "deleted":
                deleted = true
            default:
                break
            }
        }
        return parsed.filter { $0.name != "presence" }
    }

    /// Splits a `text/event-stream` body into events; every line must be a field we send.
    package static func parse(_ bytes: [UInt8]) throws -> [SentEvent] {
        var events: [SentEvent] = []
        var current = SentEvent()
        var started = false
        let text = String(decoding: bytes, as: UTF8.self)
        try expect(!text.contains("\r"), "no carriage return anywhere in the stream")
        try expect(bytes.isEmpty || text.hasSuffix("\n\n"), "the hub writes whole events")
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                if started { events.append(current) }
                current = SentEvent()
                started = false
                continue
            }
            started = true
            if line.hasPrefix(":") {
                started = false
                continue
            }
            if line.hasPrefix("event: ") {
                current.name = String(line.dropFirst(7))
            } else if line.hasPrefix("id: ") {
                current.id = Int(line.dropFirst(4))
            } else if line.hasPrefix("retry: ") {
                current.retry = Int(line.dropFirst(7))
            } else if line.hasPrefix("data: ") {
                try expect(current.data == nil, "one data line per event")
                current.data = Array(line.dropFirst(6).utf8)
            } else {
                throw LiveClientError("a line that is no SSE field we send: \(line.prefix(80))")
            }
        }
        return events
    }
}
