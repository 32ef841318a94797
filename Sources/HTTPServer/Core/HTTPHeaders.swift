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

    /// How many fields carry that name.
    public func occurrences(of name: String) -> Int {
        fields.reduce(0) { count, field in Self.namesEqual(field.name, name) ? count + 1 : count }
    }

    /// These fields with each value's leading and trailing spaces and tabs removed (RFC 9110
    /// section 5.5: they are not part of the field value). Values that have none are kept as
    /// they are, without a copy.
    public func trimmingValues() -> HTTPHeaders {
        func padded(_ value: String) -> Bool {
            guard let first = value.utf8.first, let last = value.utf8.last else { return false }
            return first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09
        }
        guard fields.contains(where: { padded($0.value) }) else { return self }
        var trimmed = self
        trimmed.fields = fields.map { padded($0.value) ? (name: $0.name, value: Substring($0.value).trimmingOWS()) : $0 }
        return trimmed
    }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// ASCII case-insensitive comparison of two field names.
    static func namesEqual(_ a: String, _ b: String) -> Bool {
        let a = a.utf8, b = b.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A) }
    }
}
