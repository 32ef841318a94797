/// Collects the operations of a patch and keeps count of their serialized size.
///
/// The size counts `JSONPatch.json.serialized()` byte for byte (`{"op","path","value"}` and
/// `{"op","from","path"}` members, no whitespace) given each value's size, so the diff can
/// prefer a whole replace when the fine-grained operations would be larger. The diff passes
/// 0 for the values of new rows and adds them only when it must (`KeyedListDiff.exactSize`).
struct PatchWriter {
    private(set) var operations: [JSONPatchOperation] = []
    /// The size of the operations written so far as a JSON array (`[` … `]`, commas included).
    private(set) var size = 2

    /// The size of one `add` or `replace` operation, without the separating comma.
    static func valueOperationSize(op: String, path: OperationPath, valueSize: Int) -> Int {
        #"{"op":"","path":,"value":}"#.utf8.count + op.utf8.count + path.size + valueSize
    }

    /// The size of one `remove` operation, without the separating comma.
    static func removeSize(path: OperationPath) -> Int {
        #"{"op":"remove","path":}"#.utf8.count + path.size
    }

    /// The size of one `move` operation, without the separating comma.
    static func moveSize(from: OperationPath, path: OperationPath) -> Int {
        #"{"op":"move","from":,"path":}"#.utf8.count + from.size + path.size
    }

    mutating func add(_ path: OperationPath, _ value: JSONValue, valueSize: Int) {
        append(.add(path: path.pointer, value: value), size: Self.valueOperationSize(op: "add", path: path, valueSize: valueSize))
    }

    mutating func replace(_ path: OperationPath, _ value: JSONValue, valueSize: Int) {
        append(
            .replace(path: path.pointer, value: value),
            size: Self.valueOperationSize(op: "replace", path: path, valueSize: valueSize))
    }

    mutating func remove(_ path: OperationPath) {
        append(.remove(path: path.pointer), size: Self.removeSize(path: path))
    }

    mutating func move(from: OperationPath, to path: OperationPath) {
        append(.move(from: from.pointer, path: path.pointer), size: Self.moveSize(from: from, path: path))
    }

    /// Appends the operations of `other`.
    mutating func append(contentsOf other: PatchWriter) {
        guard !other.operations.isEmpty else { return }
        if !operations.isEmpty { size += 1 }
        operations.append(contentsOf: other.operations)
        size += other.contentSize
    }

    /// A point to roll back to: the number of operations and the size so far.
    var mark: (count: Int, size: Int) { (operations.count, size) }

    /// Removes the operations written since `mark`.
    mutating func rollBack(to mark: (count: Int, size: Int)) {
        operations.removeSubrange(mark.count...)
        size = mark.size
    }

    /// The size of the operations without the enclosing brackets.
    var contentSize: Int { size - 2 }

    private mutating func append(_ operation: JSONPatchOperation, size: Int) {
        if !operations.isEmpty { self.size += 1 }
        operations.append(operation)
        self.size += size
    }
}
