/// One member as stored: a struct rather than the public tuple, so that destroying one is
/// compiled code instead of the runtime's generic tuple destroy.
struct JSONObjectEntry {
    var key: String
    var value: JSONValue
}

/// The count and capacity of a ``JSONObjectStorage``.
struct JSONObjectHeader {
    var count: Int
    var capacity: Int
}

/// The members of one ``JSONObject``, tail-allocated in a single heap block.
///
/// Immutable once shared: ``JSONObject`` copies it before any edit unless it holds the only
/// reference, which is what makes sharing it across threads sound.
final class JSONObjectStorage: ManagedBuffer<JSONObjectHeader, JSONObjectEntry> {
    /// Empty storage with room for `capacity` members.
    static func make(capacity: Int) -> JSONObjectStorage {
        let buffer = create(minimumCapacity: capacity) { _ in JSONObjectHeader(count: 0, capacity: capacity) }
        return unsafeDowncast(buffer, to: JSONObjectStorage.self)
    }

    /// Storage holding copies of `members`, with room for at least `capacity`.
    static func make(copying members: UnsafeBufferPointer<JSONObjectEntry>, capacity: Int = 0) -> JSONObjectStorage {
        let storage = make(capacity: Swift.max(capacity, members.count))
        storage.withUnsafeMutablePointers { header, elements in
            if let source = members.baseAddress { elements.initialize(from: source, count: members.count) }
            header.pointee.count = members.count
        }
        return storage
    }

    /// Storage holding `members`.
    static func make(_ members: [JSONObject.Member]) -> JSONObjectStorage {
        let storage = make(capacity: members.count)
        storage.withUnsafeMutablePointers { header, elements in
            for (index, member) in members.enumerated() {
                (elements + index).initialize(to: JSONObjectEntry(key: member.key, value: member.value))
            }
            header.pointee.count = members.count
        }
        return storage
    }

    /// Storage that takes over `count` members from `source`, leaving that memory uninitialized.
    static func make(moving source: UnsafeMutablePointer<JSONObjectEntry>, count: Int) -> JSONObjectStorage {
        let buffer = create(minimumCapacity: count) { _ in JSONObjectHeader(count: count, capacity: count) }
        let storage = unsafeDowncast(buffer, to: JSONObjectStorage.self)
        storage.withUnsafeMutablePointerToElements { $0.moveInitialize(from: source, count: count) }
        return storage
    }

    deinit {
        withUnsafeMutablePointers { header, members in
            for index in 0..<header.pointee.count { (members + index).deinitialize(count: 1) }
        }
    }

    var count: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }
    var room: Int { withUnsafeMutablePointerToHeader { $0.pointee.capacity } }

    /// The first member; valid while this storage is alive.
    var members: UnsafeMutablePointer<JSONObjectEntry> {
        withUnsafeMutablePointerToElements { $0 }
    }

    func withMembers<R>(_ body: (UnsafeBufferPointer<JSONObjectEntry>) throws -> R) rethrows -> R {
        try withUnsafeMutablePointers { header, members in
            try body(UnsafeBufferPointer(start: members, count: header.pointee.count))
        }
    }

    /// Appends a member; the caller has made sure there is room.
    func append(_ member: JSONObjectEntry) {
        withUnsafeMutablePointers { header, members in
            (members + header.pointee.count).initialize(to: member)
            header.pointee.count += 1
        }
    }

    /// Removes the member at `index`, closing the gap.
    func remove(at index: Int) -> JSONObjectEntry {
        withUnsafeMutablePointers { header, members in
            let removed = (members + index).move()
            (members + index).moveInitialize(from: members + index + 1, count: header.pointee.count - index - 1)
            header.pointee.count -= 1
            return removed
        }
    }
}
