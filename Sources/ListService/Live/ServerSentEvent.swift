import ListModel
import ServerSupport

/// Server-Sent Events framing (the `text/event-stream` format of the HTML standard).
///
/// Events are made once as `SharedBytes` and written to every stream that sends them. A
/// `reset` is three buffers: a small head naming the subscription, the document (shared by
/// every subscriber of that version and window) and a shared tail, so a subscriber's reset
/// costs it no copy of the document.
package enum ServerSentEvent {
    /// One event: `event:`, `id:` and a single `data:` line. `data` must hold no CR or LF,
    /// which our JSON serialization guarantees (line breaks in strings are escaped).
    package static func encode(_ name: String, id: Int?, data: [UInt8]) -> SharedBytes {
        var bytes = head(name, id: id)
        bytes.reserveCapacity(bytes.count + data.count + 2)
        bytes += data
        bytes += [0x0A, 0x0A]
        return SharedBytes(bytes)
    }

    /// `event: NAME`, `id: ID` (when given) and `data: `, up to the data.
    private static func head(_ name: String, id: Int?) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count + 40)
        bytes += Array("event: \(name)\n".utf8)
        if let id { bytes += Array("id: \(id)\n".utf8) }
        bytes += Array("data: ".utf8)
        return bytes
    }

    /// `event: patch` with the version as its id.
    package static func patch(_ patch: JSONPatch, version: Int) -> SharedBytes {
        encode("patch", id: version, data: patch.json.serialized())
    }

    /// `event: patch` from a stored change-log entry.
    package static func patch(serialized data: [UInt8], version: Int) -> SharedBytes {
        encode("patch", id: version, data: data)
    }

    /// `event: reset` with the whole (windowed) document, serialized once and shared: the
    /// subscriber's own head, `document`, and the shared tail.
    package static func reset(version: Int, subscription: String, document: SharedBytes) -> [SharedBytes] {
        var head = head("reset", id: version)
        head += Array("{\"version\":\(version),\"subscription\":".utf8)
        JSONValue.string(subscription).serialize(into: &head)
        head += Array(",\"doc\":".utf8)
        return [SharedBytes(head), document, resetTail]
    }

    /// What follows the document in every `reset`.
    package static let resetTail = SharedBytes([UInt8(ascii: "}"), 0x0A, 0x0A])

    /// `event: subscription`, the first event of every stream (no id). It carries the stream's
    /// `retry: 1000` (wait a second before reconnecting) as a field of its own: a `retry:` block
    /// alone is an event with no data, which some clients (httpx-sse) hand over as an empty message.
    package static func subscription(_ id: String, version: Int) -> SharedBytes {
        var bytes = Array("event: subscription\nretry: 1000\ndata: ".utf8)
        JSONValue.object(
            JSONObject([
                ("subscription", .string(id)),
                ("version", .number(Double(version))),
            ])
        ).serialize(into: &bytes)
        bytes += [0x0A, 0x0A]
        return SharedBytes(bytes)
    }

    /// `event: deleted`: the list is gone and the stream ends.
    package static func deleted(version: Int) -> SharedBytes {
        encode("deleted", id: version, data: Array("{\"version\":\(version)}".utf8))
    }

    /// `event: presence` (no id: it is not a version): how many streams of the list are open
    /// on every instance.
    package static func presence(viewers: Int) -> SharedBytes {
        encode("presence", id: nil, data: Array("{\"viewers\":\(viewers)}".utf8))
    }

    /// The comment line written while idle, so proxies and clients know the stream is alive.
    package static let heartbeat: [UInt8] = Array(": ping\n\n".utf8)
}
