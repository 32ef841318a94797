/// An RFC 6901 JSON Pointer: a path of reference tokens into a JSON value.
public struct JSONPointer: Sendable, Hashable {
    /// The unescaped reference tokens; empty for the whole document.
    public var tokens: [String]

    /// A pointer of these (unescaped) tokens.
    public init(tokens: [String]) { self.tokens = tokens }

    /// The pointer to the whole document.
    public static let root = JSONPointer(tokens: [])
}
