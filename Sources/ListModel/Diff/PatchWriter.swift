/// Collects the operations of a patch and keeps count of their serialized size.
///
/// The size is exact for `JSONPatch.json.serialized()` (`{"op","path","value"}` and
/// `{"op","from","path"}` members, no whitespace), so the diff can prefer a whole replace
/// when the fine-grained operations would be larger.
struct PatchWriter {
    private(set) var operations: [JSONPatchOperation] = []
    /// The size of the operations written so far as a JSON array (`[` … `]`, commas included).
    private(set) var size = 2

    /// The size of one `add` or `replace` operation, without the separating comma.
    static func valueOperationSize(op: String, path: JSONPointer, valueSize: Int) -> Int {
        #"{"op":"","path":,"value":}"#.utf8.count + op.utf8.count + CanonicalSize.pointer(path) + valueSize
    }

    /// The size of one `remove` operation, without the separating comma.
    static func removeSize(path: JSONPointer) -> Int {
        #"{"op":"remove","path":}"#.utf8.count + CanonicalSize.pointer(path)
    }

    /// The size of one `move` operation, without the separating comma.
    static func moveSize(from: JSONPointer, path: JSONPointer) -> Int {
        #"{"op":"move","from":,"path":}"#.utf8.count + CanonicalSize.pointer(from) + CanonicalSize.pointer(path)
    }

    mutating func add(_ path: JSONPointer, _ value: JSONValue, valueSize: Int) {
        append(.add(path: path, value: value), size: Self.valueOperationSize(op: "add", path: path, valueSize: valueSize))
    }

    mutating func replace(_ path: JSONPointer, _ value: JSONValue, valueSize: Int) {
        append(
            .replace(path: path, value: value),
            size: Self.valueOperationSize(op: "replace", path: path, valueSize: valueSize))
    }

    mutating func remove(_ path: JSONPointer) {
        append(.remove(path: path), size: Self.removeSize(path: path))
    }

    mutating func move(from: JSONPointer, to path: JSONPointer) {
        append(.move(from: from, path: path), size: Self.moveSize(from: from, path: path))
    }

    /// Appends operations whose size (with the commas between them) is already known.
    mutating func append(contentsOf operations: [JSONPatchOperation], size: Int) {
        guard !operations.isEmpty else { return }
        if !self.operations.isEmpty { self.size += 1 }
        self.operations.append(contentsOf: operations)
        self.size += size
    }

    private mutating func append(_ operation: JSONPatchOperation, size: Int) {
        if !operations.isEmpty { self.size += 1 }
        operations.append(operation)
        self.size += size
    }
}
