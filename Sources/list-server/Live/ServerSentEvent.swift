import ListModel

/// Server-Sent Events framing (the `text/event-stream` format of the HTML standard).
enum ServerSentEvent {
    /// One event: `event:`, `id:` and a single `data:` line. `data` must hold no CR or LF,
    /// which our JSON serialization guarantees (line breaks in strings are escaped).
    static func encode(_ name: String, id: Int?, data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count + name.utf8.count + 32)
        bytes += Array("event: \(name)\n".utf8)
        if let id { bytes += Array("id: \(id)\n".utf8) }
        bytes += Array("data: ".utf8)
        bytes += data
        bytes += [0x0A, 0x0A]
        return bytes
    }

    /// `event: patch` with the version as its id.
    static func patch(_ patch: JSONPatch, version: Int) -> [UInt8] {
        encode("patch", id: version, data: patch.json.serialized())
    }

    /// `event: patch` from a stored change-log entry.
    static func patch(serialized data: [UInt8], version: Int) -> [UInt8] {
        encode("patch", id: version, data: data)
    }

    /// `event: reset` with the whole (windowed) document.
    static func reset(version: Int, subscription: String, document: JSONValue) -> [UInt8] {
        reset(version: version, subscription: subscription, serializedDocument: document.serialized())
    }

    /// `event: reset` around a document already serialized (shared by all its readers).
    static func reset(version: Int, subscription: String, serializedDocument: [UInt8]) -> [UInt8] {
        var data = Array("{\"version\":\(version),\"subscription\":".utf8)
        JSONValue.string(subscription).serialize(into: &data)
        data += Array(",\"doc\":".utf8)
        data += serializedDocument
        data.append(UInt8(ascii: "}"))
        return encode("reset", id: version, data: data)
    }

    /// `event: deleted`: the list is gone and the stream ends.
    static func deleted(version: Int) -> [UInt8] {
        encode("deleted", id: version, data: Array("{\"version\":\(version)}".utf8))
    }

    /// The comment line written while idle, so proxies and clients know the stream is alive.
    static let heartbeat: [UInt8] = Array(": ping\n\n".utf8)

    /// Tells the browser how long to wait before reconnecting (milliseconds).
    static func retry(milliseconds: Int) -> [UInt8] { Array("retry: \(milliseconds)\n\n".utf8) }
}
