/// The members of a JSON object, in insertion order.
///
/// Order is kept so that serialization is deterministic, but equality ignores it.
/// Member names are unique (compared byte for byte, as JSON does): setting an existing name
/// replaces its value in place.
/// Lookup is linear, which is fastest for the small objects lists are made of.
public struct JSONObject: Sendable, Equatable, Sequence {
    public typealias Member = (key: String, value: JSONValue)

    /// The members in order.
    public private(set) var members: [Member]

    /// An empty object.
    public init() { members = [] }

    /// An object of these members; a repeated name keeps its last value.
    public init<S: Sequence>(_ members: S) where S.Element == (String, JSONValue) {
        self.members = []
        for (key, value) in members { self[key] = value }
    }

    /// An object from members already known to have unique names (the parser's path).
    init(uniqueMembers: [Member]) { members = uniqueMembers }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    /// The value of the member with this name; setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in members where utf8Equal(member.key, key) { return member.value }
            return nil
        }
        set {
            if let index = index(forKey: key) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    /// Removes the named member and returns its value, or `nil` when there was none.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let index = index(forKey: key) else { return nil }
        return members.remove(at: index).value
    }

    /// The position of the member with this name (compared byte for byte), if any.
    func index(forKey key: String) -> Int? {
        members.firstIndex { utf8Equal($0.key, key) }
    }

    /// Runs `body` on the value at `index` in place, without copying the members.
    mutating func modifyValue<R, E: Error>(at index: Int, _ body: (inout JSONValue) throws(E) -> R) throws(E) -> R {
        try body(&members[index].value)
    }

    /// Removes and returns the member at `index`.
    mutating func remove(at index: Int) -> Member { members.remove(at: index) }

    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for (index, (key, value)) in lhs.members.enumerated() {
            // Members usually share their order: try the same position before searching.
            let same = rhs.members[index]
            if utf8Equal(same.key, key) {
                guard same.value == value else { return false }
            } else {
                guard let other = rhs[key], other == value else { return false }
            }
        }
        return true
    }
}
