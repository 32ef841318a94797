/// Why a JSON Patch was rejected: malformed (HTTP 400) or failed against the document (HTTP 409).
///
/// `description` reads like `operation 2: missing "value"` or
/// `operation 0: "/a/3": index 3 is out of range (the array has 2 elements)`.
public struct JSONPatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which side is at fault.
    public enum Kind: Sendable, Equatable {
        /// The patch is not a valid RFC 6902 document (not JSON, not an array, an unknown `op`,
        /// a missing or mistyped member, a bad pointer): the client's request is wrong.
        case malformed
        /// A well-formed operation could not apply to this document (a path that does not exist,
        /// an index out of range, a failed `test`, a move into its own child).
        case failed
    }

    /// Malformed or failed.
    public var kind: Kind
    /// The 0-based index of the operation at fault; `nil` when the whole patch is (not JSON, not an array).
    public var operationIndex: Int?
    /// What is wrong, naming the path where there is one.
    public var message: String

    public init(kind: Kind, operationIndex: Int?, message: String) {
        self.kind = kind
        self.operationIndex = operationIndex
        self.message = message
    }

    /// The HTTP status a server answers with: 400 for a malformed patch, 409 for a failed one.
    public var httpStatus: Int { kind == .malformed ? 400 : 409 }

    public var description: String {
        guard let operationIndex else { return message }
        return "operation \(operationIndex): \(message)"
    }
}
