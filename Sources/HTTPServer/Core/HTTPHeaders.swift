/// An ordered list of header fields; lookups ignore ASCII case in names.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Field = (name: String, value: String)

    private var fields: [Field] = []

    public init() {}

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of the named field, or nil. Setting replaces every field of that name
    /// (nil removes them).
    public subscript(name: String) -> String? {
        get { fields.first { Self.namesEqual($0.name, name) }?.value }
        set {
            let position = fields.firstIndex { Self.namesEqual($0.name, name) }
            fields.removeAll { Self.namesEqual($0.name, name) }
            guard let newValue else { return }
            fields.insert((name: name, value: newValue), at: position ?? fields.count)
        }
    }

    /// Appends a field, keeping any earlier field of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Every value of the named field, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesEqual($0.name, name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// ASCII case-insensitive comparison of two field names.
    static func namesEqual(_ a: String, _ b: String) -> Bool {
        let a = a.utf8, b = b.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A) }
    }
}
