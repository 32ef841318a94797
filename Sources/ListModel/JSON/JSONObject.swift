/// The members of a JSON object, in insertion order.
///
/// Order is kept so that serialization is deterministic, but equality ignores it.
/// Member names are unique (compared byte for byte, as JSON does): setting an existing name
/// replaces its value in place.
/// Lookup is linear, which is fastest for the small objects lists are made of.
///
/// The members live in one tail-allocated buffer shared copy-on-write; an empty object
/// allocates nothing.
public struct JSONObject: Sendable {
    public typealias Member = (key: String, value: JSONValue)

    /// Shared read-only once copied; edits go to a unique copy (see `makeUnique`).
    nonisolated(unsafe) var storage: JSONObjectStorage?

    /// An empty object.
    public init() { storage = nil }

    /// An object of these members; a repeated name keeps its last value.
    public init<S: Sequence>(_ members: S) where S.Element == (String, JSONValue) {
        storage = nil
        for (key, value) in members { self[key] = value }
    }

    /// An object from members already known to have unique names.
    init(uniqueMembers: [Member]) {
        storage = uniqueMembers.isEmpty ? nil : JSONObjectStorage.make(uniqueMembers)
    }

    /// An object of the members in `storage`, whose names are unique; the object owns it now.
    init(storage: JSONObjectStorage) { self.storage = storage.count == 0 ? nil : storage }

    /// An object that takes ownership of `count` initialized members at `source` (moved, not
    /// copied); the names must be unique. This is the parser's path.
    init(movingUniqueMembersFrom source: UnsafeMutablePointer<JSONObjectEntry>, count: Int) {
        storage = count == 0 ? nil : JSONObjectStorage.make(moving: source, count: count)
    }

    /// The members in order.
    public var members: [Member] { withMembers { $0.map { ($0.key, $0.value) } } }

    public var count: Int { storage?.count ?? 0 }
    public var isEmpty: Bool { count == 0 }
    public var keys: [String] { withMembers { $0.map(\.key) } }

    /// Runs `body` over the members in order, without copying them.
    func withMembers<R>(_ body: (UnsafeBufferPointer<JSONObjectEntry>) throws -> R) rethrows -> R {
        guard let storage else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try storage.withMembers(body)
    }

    /// The value of the member with this name; setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            withMembers { members in
                for member in members where utf8Equal(member.key, key) { return member.value }
                return nil
            }
        }
        set {
            if let index = index(forKey: key) {
                if let newValue { modifyValue(at: index) { $0 = newValue } } else { remove(at: index) }
            } else if let newValue {
                append(JSONObjectEntry(key: key, value: newValue))
            }
        }
    }

    /// Removes the named member and returns its value, or `nil` when there was none.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let index = index(forKey: key) else { return nil }
        return remove(at: index).value
    }

    /// The position of the member with this name (compared byte for byte), if any.
    func index(forKey key: String) -> Int? {
        withMembers { members in members.firstIndex { utf8Equal($0.key, key) } }
    }

    /// Runs `body` on the value at `index` in place, without copying the members.
    mutating func modifyValue<R, E: Error>(at index: Int, _ body: (inout JSONValue) throws(E) -> R) throws(E) -> R {
        precondition(index >= 0 && index < count, "JSONObject index out of range")
        makeUnique(capacity: count)
        // The storage stays alive and unique while `body` runs: only the value is lent out.
        let members = storage.unsafelyUnwrapped.members
        return try body(&members[index].value)
    }

    /// Removes and returns the member at `index`.
    @discardableResult
    mutating func remove(at index: Int) -> Member {
        precondition(index >= 0 && index < count, "JSONObject index out of range")
        makeUnique(capacity: count)
        let removed = storage!.remove(at: index)
        return (removed.key, removed.value)
    }

    /// Adds a member at the end; the caller has checked that the name is new.
    private mutating func append(_ member: JSONObjectEntry) {
        makeUnique(capacity: count + 1)
        storage!.append(member)
    }

    /// Makes `storage` uniquely owned with room for `capacity` members.
    private mutating func makeUnique(capacity: Int) {
        let available = storage?.room ?? 0
        if available >= capacity, isKnownUniquelyReferenced(&storage) { return }
        let newCapacity = capacity > available ? Swift.max(capacity, 2 * count, 4) : available
        storage = withMembers { JSONObjectStorage.make(copying: $0, capacity: newCapacity) }
    }
}

extension JSONObject: Sequence {
    public struct Iterator: IteratorProtocol {
        let object: JSONObject
        var index = 0

        public mutating func next() -> Member? {
            guard index < object.count else { return nil }
            defer { index += 1 }
            let entry = object.storage!.members[index]
            return (entry.key, entry.value)
        }
    }

    public func makeIterator() -> Iterator { Iterator(object: self) }

    public var underestimatedCount: Int { count }
}

extension JSONObject: Equatable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.withMembers { left in
            rhs.withMembers { right in
                guard left.count == right.count else { return false }
                for index in left.indices {
                    // Members usually share their order: try the same position before searching.
                    let key = left[index].key, value = left[index].value
                    let same = right[index]
                    if utf8Equal(same.key, key) {
                        guard same.value == value else { return false }
                    } else {
                        guard let match = right.first(where: { utf8Equal($0.key, key) }), match.value == value else {
                            return false
                        }
                    }
                }
                return true
            }
        }
    }
}
