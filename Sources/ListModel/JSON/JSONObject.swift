/// The members of a JSON object, in insertion order.
///
/// Order is kept so that serialization is deterministic, but equality ignores it.
/// Member names are unique: setting an existing name replaces its value in place.
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
            for member in members where member.key == key { return member.value }
            return nil
        }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    /// Removes the named member and returns its value, or `nil` when there was none.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let index = members.firstIndex(where: { $0.key == key }) else { return nil }
        return members.remove(at: index).value
    }

    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for (key, value) in lhs.members {
            guard let other = rhs[key], other == value else { return false }
        }
        return true
    }
}
