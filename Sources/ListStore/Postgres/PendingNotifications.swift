/// Commits waiting to be announced, coalesced: only the newest version of each list is kept,
/// and they go out several to a payload (`id:version` lines), each payload under PostgreSQL's
/// 8000-byte limit.
struct PendingNotifications {
    /// The channel every instance's store listens on.
    static let channel = "list_server_changes"
    /// Most bytes of one payload (PostgreSQL refuses 8000 and more).
    static let payloadLimit = 7_900

    private(set) var versions: [String: Int] = [:]

    var isEmpty: Bool { versions.isEmpty }

    /// Remembers that `id` reached `version` (an older version than one pending is dropped).
    mutating func add(id: String, version: Int) {
        versions[id] = max(versions[id] ?? version, version)
    }

    /// Puts back what could not be sent, keeping newer versions added meanwhile.
    mutating func merge(_ other: PendingNotifications) {
        for (id, version) in other.versions { add(id: id, version: version) }
    }

    /// Takes everything pending as payloads of at most `limit` bytes; empties the set.
    mutating func takePayloads(limit: Int = payloadLimit) -> [String] {
        var payloads: [String] = []
        var current = ""
        for (id, version) in versions.sorted(by: { $0.key < $1.key }) {
            let line = "\(id):\(version)"
            guard line.utf8.count < limit else { continue }  // cannot be sent: reconciliation finds it
            if !current.isEmpty && current.utf8.count + 1 + line.utf8.count > limit {
                payloads.append(current)
                current = ""
            }
            current += current.isEmpty ? line : "\n" + line
        }
        if !current.isEmpty { payloads.append(current) }
        versions.removeAll()
        return payloads
    }

    /// The (id, version) pairs of a payload; lines that do not parse are skipped (a lost
    /// notification costs only latency: reconciliation compares versions).
    static func parse(_ payload: String) -> [(id: String, version: Int)] {
        payload.split(separator: "\n").compactMap { line in
            guard let colon = line.lastIndex(of: ":"), let version = Int(line[line.index(after: colon)...]) else { return nil }
            return (String(line[..<colon]), version)
        }
    }
}
