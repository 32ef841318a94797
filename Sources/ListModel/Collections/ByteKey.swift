/// A key (of a row, section, column or JSON member) that is equal to another only when their
/// UTF-8 bytes are: the one meaning of key equality everywhere (docs/API.md, "Keys").
///
/// Swift's `String` compares and hashes by Unicode canonical equivalence, so `"\u{E9}"` (NFC)
/// and `"e\u{301}"` (NFD), or `"\u{212A}"` (KELVIN SIGN) and `"K"`, are equal `String`s and
/// the same `Dictionary<String, …>` key. Dictionaries and sets of keys use `ByteKey` instead;
/// single comparisons use `utf8Equal`. A native string's bytes are contiguous, so both the hash
/// and the comparison read them directly, with no normalisation (cheaper than `String`'s own
/// for non-ASCII keys, the same for ASCII ones).
public struct ByteKey: Hashable, Sendable, CustomStringConvertible {
    /// The key.
    public let string: String

    public init(_ string: String) { self.string = string }

    public static func == (lhs: ByteKey, rhs: ByteKey) -> Bool { utf8Equal(lhs.string, rhs.string) }

    public func hash(into hasher: inout Hasher) {
        var string = string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    public var description: String { string }
}

extension ByteKey: ExpressibleByStringLiteral, Comparable {
    public init(stringLiteral value: String) { self.init(value) }

    /// Byte order (UTF-8 order is code point order).
    public static func < (lhs: ByteKey, rhs: ByteKey) -> Bool {
        lhs.string.utf8.lexicographicallyPrecedes(rhs.string.utf8)
    }
}
