extension JSONPatch {
    /// The result of applying every operation in order to `value`, all or nothing.
    ///
    /// On any failure nothing is returned and `value`, a value, is untouched. Edits happen in
    /// place on one working copy, so a patch copies only the containers on the paths it changes.
    /// Errors are ``JSONPatchError/Kind/failed`` and name the operation and the path.
    public func apply(to value: JSONValue) throws(JSONPatchError) -> JSONValue {
        var result = value
        for (index, operation) in operations.enumerated() {
            do {
                try operation.apply(to: &result)
            } catch {
                throw JSONPatchError(kind: .failed, operationIndex: index, message: error.message)
            }
        }
        return result
    }
}

extension JSONPatchOperation {
    /// Applies this operation to `document` in place; on error `document` may be half edited.
    func apply(to document: inout JSONValue) throws(JSONPointerError) {
        switch self {
        case .add(let path, let value):
            try addValue(value, at: path, in: &document)
        case .remove(let path):
            _ = try removeValue(at: path, in: &document)
        case .replace(let path, let value):
            try path.modify(&document) { (target: inout JSONValue) throws(JSONPointerError) in target = value }
        case .move(let from, let path):
            if from.isPrefix(of: path) {
                guard from.tokens.count == path.tokens.count else {
                    throw JSONPointerError(
                        message: "cannot move \(quoted(from.description)) into its own child \(quoted(path.description))")
                }
                _ = try from.resolve(in: document)  // the source must exist even when nothing moves
                return
            }
            let value = try removeValue(at: from, in: &document)
            try addValue(value, at: path, in: &document)
        case .copy(let from, let path):
            try addValue(try from.resolve(in: document), at: path, in: &document)
        case .test(let path, let expected):
            let actual = try path.resolve(in: document)
            guard actual == expected else {
                throw JSONPointerError(
                    message: "\(quoted(path.description)): test failed: the value is \(excerpt(actual)), expected \(excerpt(expected))")
            }
        }
    }
}

/// Adds `value` at `path`: sets an object member, inserts into an array (`-` appends), or
/// replaces the whole document for the root pointer.
private func addValue(_ value: JSONValue, at path: JSONPointer, in document: inout JSONValue) throws(JSONPointerError) {
    try path.addValue(value, in: &document, below: 0)
}

/// Removes the value at `path` and returns it; the root cannot be removed.
private func removeValue(at path: JSONPointer, in document: inout JSONValue) throws(JSONPointerError) -> JSONValue {
    guard path.lastToken != nil else {
        throw JSONPointerError(message: "\"\": cannot remove the whole document")
    }
    return try path.removeValue(in: &document, below: 0)
}

extension JSONPointer {
    /// `add` of `value` at this pointer inside `subtree`, the value named by the pointer's first
    /// `start` tokens (0: the whole document); errors name the whole pointer, as they do when
    /// the patch applies to the whole document. A pointer of `start` tokens replaces `subtree`.
    func addValue(_ value: JSONValue, in subtree: inout JSONValue, below start: Int) throws(JSONPointerError) {
        guard let token = lastToken, tokens.count > start else {
            subtree = value
            return
        }
        let depth = tokens.count - 1
        try modify(&subtree, depth: start, stop: depth) { (container: inout JSONValue) throws(JSONPointerError) in
            if var object = container.takeObject() {
                object[token] = value
                container = .object(object)
                return
            }
            if var elements = container.takeArray() {
                defer { container = .array(elements) }
                let index = try insertionIndex(token, count: elements.count, depth: depth)
                elements.insert(value, at: index)
                return
            }
            throw notFound(depth, "\(prefixDescription(depth)) is \(article(container.typeName)), not an object or array")
        }
    }

    /// `remove` of the value at this pointer inside `subtree`, the value named by its first
    /// `start` tokens; the pointer must be longer than that.
    func removeValue(in subtree: inout JSONValue, below start: Int) throws(JSONPointerError) -> JSONValue {
        let token = tokens[tokens.count - 1]
        let depth = tokens.count - 1
        return try modify(&subtree, depth: start, stop: depth) { (container: inout JSONValue) throws(JSONPointerError) -> JSONValue in
            if var object = container.takeObject() {
                defer { container = .object(object) }
                guard let index = object.index(forKey: token) else {
                    throw notFound(depth, "member \(quoted(token)) not found")
                }
                return object.remove(at: index).value
            }
            if var elements = container.takeArray() {
                defer { container = .array(elements) }
                let index = try existingIndex(token, count: elements.count, depth: depth)
                return elements.remove(at: index)
            }
            throw notFound(depth, "\(prefixDescription(depth)) is \(article(container.typeName)), not an object or array")
        }
    }

    /// `replace` of the value at this pointer inside `subtree` (named by its first `start` tokens).
    func replaceValue(_ value: JSONValue, in subtree: inout JSONValue, below start: Int) throws(JSONPointerError) {
        try modify(&subtree, depth: start, stop: tokens.count) { (target: inout JSONValue) throws(JSONPointerError) in target = value }
    }

    /// The index an array token names for an `add`: `-` is the end, else at most `count`.
    func insertionIndex(_ token: String, count: Int, depth: Int) throws(JSONPointerError) -> Int {
        if token == "-" { return count }
        guard let parsed = JSONPointer.arrayIndex(token) else {
            throw notFound(depth, "\(quoted(token)) is not an array index")
        }
        guard parsed <= count else {
            throw notFound(depth, "index \(parsed) is out of range (the array has \(count) element\(count == 1 ? "" : "s"))")
        }
        return parsed
    }
}

/// A value's JSON text for a message, cut to about 80 bytes.
func excerpt(_ value: JSONValue) -> String {
    let bytes = value.serialized()
    guard bytes.count > 80 else { return String(decoding: bytes, as: UTF8.self) }
    var cut = 80
    while cut > 0 && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }  // do not split a UTF-8 sequence
    return String(decoding: bytes[..<cut], as: UTF8.self) + "…"
}
