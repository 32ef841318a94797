/// Why a byte sequence is not a JSON text this parser accepts, and where.
///
/// `description` reads like `byte 17: duplicate member name "a"`; `offset` counts bytes from
/// the start of the input (0-based).
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 0-based offset of the byte where the problem was found.
    public var offset: Int
    /// What is wrong, for a human.
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "byte \(offset): \(message)" }
}
