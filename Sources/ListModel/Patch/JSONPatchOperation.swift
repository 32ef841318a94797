/// One operation of an RFC 6902 JSON Patch.
public enum JSONPatchOperation: Sendable, Equatable {
    case add(path: JSONPointer, value: JSONValue)
    case remove(path: JSONPointer)
    case replace(path: JSONPointer, value: JSONValue)
    case move(from: JSONPointer, path: JSONPointer)
    case copy(from: JSONPointer, path: JSONPointer)
    case test(path: JSONPointer, value: JSONValue)
}

/// An RFC 6902 JSON Patch: operations applied in order, all or nothing.
public struct JSONPatch: Sendable, Equatable {
    /// The operations in the order they apply.
    public var operations: [JSONPatchOperation]

    public init(operations: [JSONPatchOperation]) { self.operations = operations }
}
