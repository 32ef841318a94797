#if canImport(FoundationEssentials)
import struct FoundationEssentials.Data
#else
import struct Foundation.Data
#endif

extension JSONPatch {
    /// Parses an RFC 6902 document: a JSON array of operation objects.
    ///
    /// Strict: `op` must be one of the six operations, `path` (and `from` for `move`/`copy`) must
    /// be valid JSON Pointers, `value` must be present for `add`, `replace` and `test`. Other
    /// members are ignored, as the RFC says. Every error is ``JSONPatchError/Kind/malformed``.
    public init(parsing bytes: [UInt8], maxDepth: Int = 64) throws(JSONPatchError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes, maxDepth: maxDepth)
        } catch {
            throw JSONPatchError(kind: .malformed, operationIndex: nil, message: "invalid JSON: \(error)")
        }
        try self.init(json: value)
    }

    /// Parses an RFC 6902 document held in `data` (see ``init(parsing:maxDepth:)-([UInt8],_)``).
    public init(parsing data: Data, maxDepth: Int = 64) throws(JSONPatchError) {
        try self.init(parsing: [UInt8](data), maxDepth: maxDepth)
    }

    /// Reads a patch from its JSON form (an array of operation objects), checked as strictly as
    /// ``init(parsing:maxDepth:)-([UInt8],_)``.
    public init(json: JSONValue) throws(JSONPatchError) {
        guard case .array(let elements) = json else {
            throw JSONPatchError(
                kind: .malformed, operationIndex: nil,
                message: "a JSON Patch must be an array of operations, got \(article(json.typeName))")
        }
        var operations: [JSONPatchOperation] = []
        operations.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do {
                operations.append(try JSONPatchOperation(json: element))
            } catch {
                throw JSONPatchError(kind: .malformed, operationIndex: index, message: error.message)
            }
        }
        self.init(operations: operations)
    }
}

extension JSONPatchOperation {
    /// Reads one operation object; the error message does not name the index (the caller adds it).
    init(json: JSONValue) throws(JSONPointerError) {
        guard case .object(let object) = json else {
            throw JSONPointerError(message: "an operation must be an object, got \(article(json.typeName))")
        }
        guard let opValue = object["op"] else { throw JSONPointerError(message: "missing \"op\"") }
        guard case .string(let op) = opValue else {
            throw JSONPointerError(message: "\"op\" must be a string, got \(article(opValue.typeName))")
        }
        func pointer(_ name: String) throws(JSONPointerError) -> JSONPointer {
            guard let member = object[name] else { throw JSONPointerError(message: "missing \(quoted(name))") }
            guard case .string(let text) = member else {
                throw JSONPointerError(message: "\(quoted(name)) must be a string, got \(article(member.typeName))")
            }
            do {
                return try JSONPointer(parsing: text)
            } catch {
                throw JSONPointerError(message: "\(quoted(name)) is not a JSON Pointer: \(error.message)")
            }
        }
        func value() throws(JSONPointerError) -> JSONValue {
            guard let member = object["value"] else { throw JSONPointerError(message: "missing \"value\"") }
            return member
        }
        switch op {
        case "add": self = .add(path: try pointer("path"), value: try value())
        case "remove": self = .remove(path: try pointer("path"))
        case "replace": self = .replace(path: try pointer("path"), value: try value())
        case "move": self = .move(from: try pointer("from"), path: try pointer("path"))
        case "copy": self = .copy(from: try pointer("from"), path: try pointer("path"))
        case "test": self = .test(path: try pointer("path"), value: try value())
        default:
            throw JSONPointerError(
                message: "unknown op \(quoted(op)) (expected add, remove, replace, move, copy or test)")
        }
    }
}
