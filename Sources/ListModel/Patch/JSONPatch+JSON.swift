extension JSONPatchOperation {
    /// The operation's name as RFC 6902 spells it: `add`, `remove`, `replace`, `move`, `copy`, `test`.
    public var name: String {
        switch self {
        case .add: return "add"
        case .remove: return "remove"
        case .replace: return "replace"
        case .move: return "move"
        case .copy: return "copy"
        case .test: return "test"
        }
    }

    /// The target location.
    public var path: JSONPointer {
        switch self {
        case .add(let path, _), .remove(let path), .replace(let path, _), .test(let path, _),
            .move(_, let path), .copy(_, let path):
            return path
        }
    }

    /// The operation as a JSON object, members in the order `op`, `from`, `path`, `value`.
    public var json: JSONValue {
        var members: [JSONObject.Member] = [("op", .string(name))]
        switch self {
        case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
            members.append(("path", .string(path.description)))
            members.append(("value", value))
        case .remove(let path):
            members.append(("path", .string(path.description)))
        case .move(let from, let path), .copy(let from, let path):
            members.append(("from", .string(from.description)))
            members.append(("path", .string(path.description)))
        }
        return .object(JSONObject(uniqueMembers: members))
    }
}

extension JSONPatch {
    /// The patch as a JSON array of operation objects (see ``JSONPatchOperation/json``).
    public var json: JSONValue { .array(operations.map(\.json)) }

    /// The patch as canonical JSON bytes, ready for a response body or an SSE `data:` line.
    public func serialized() -> [UInt8] { json.serialized() }

    /// Appends the patch's canonical JSON bytes to `out`.
    public func serialize(into out: inout [UInt8]) { json.serialize(into: &out) }
}
