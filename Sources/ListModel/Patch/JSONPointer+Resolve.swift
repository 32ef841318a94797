extension JSONPointer {
    /// The value this pointer refers to in `document`.
    ///
    /// Array tokens must be `0` or a decimal index without leading zeros, below the array's
    /// count; `-` (the end of an array) refers to nothing and is an error here.
    public func resolve(in document: JSONValue) throws(JSONPointerError) -> JSONValue {
        try resolve(in: document, below: 0)
    }

    /// The value this pointer refers to inside `subtree`, the value named by its first `start`
    /// tokens; errors name the whole pointer.
    func resolve(in subtree: JSONValue, below start: Int) throws(JSONPointerError) -> JSONValue {
        var current = subtree
        for depth in start..<tokens.count {
            let token = tokens[depth]
            switch current {
            case .object(let object):
                guard let value = object[token] else { throw notFound(depth, "member \(quoted(token)) not found") }
                current = value
            case .array(let elements):
                let index = try existingIndex(token, count: elements.count, depth: depth)
                current = elements[index]
            default:
                throw notFound(depth, "\(prefixDescription(depth)) is \(article(current.typeName)), not an object or array")
            }
        }
        return current
    }

    /// Runs `body` on the value this pointer refers to, in place.
    ///
    /// Keeps each container on the way uniquely referenced (moved out of its parent while it
    /// is edited), so an edit deep in a large document copies nothing it does not have to.
    func modify<R>(_ document: inout JSONValue, _ body: (inout JSONValue) throws(JSONPointerError) -> R) throws(JSONPointerError) -> R {
        try modify(&document, depth: 0, stop: tokens.count, body)
    }

    /// Runs `body` on the container of the value this pointer refers to, in place; not for the root.
    ///
    /// Errors on the way name the whole pointer.
    func modifyParent<R>(_ document: inout JSONValue, _ body: (inout JSONValue) throws(JSONPointerError) -> R) throws(JSONPointerError) -> R
    {
        try modify(&document, depth: 0, stop: tokens.count - 1, body)
    }

    func modify<R>(
        _ value: inout JSONValue, depth: Int, stop: Int,
        _ body: (inout JSONValue) throws(JSONPointerError) -> R
    ) throws(JSONPointerError) -> R {
        if depth == stop { return try body(&value) }
        let token = tokens[depth]
        if var object = value.takeObject() {
            defer { value = .object(object) }
            guard let index = object.index(forKey: token) else { throw notFound(depth, "member \(quoted(token)) not found") }
            return try object.modifyValue(at: index) { (child: inout JSONValue) throws(JSONPointerError) -> R in
                try modify(&child, depth: depth + 1, stop: stop, body)
            }
        }
        if var elements = value.takeArray() {
            defer { value = .array(elements) }
            let index = try existingIndex(token, count: elements.count, depth: depth)
            return try modify(&elements[index], depth: depth + 1, stop: stop, body)
        }
        throw notFound(depth, "\(prefixDescription(depth)) is \(article(value.typeName)), not an object or array")
    }

    /// The index an array token names for reading, replacing or removing (`-` is not allowed).
    func existingIndex(_ token: String, count: Int, depth: Int) throws(JSONPointerError) -> Int {
        if token == "-" { throw notFound(depth, "\"-\" names the end of the array, where there is no element") }
        guard let index = JSONPointer.arrayIndex(token) else {
            throw notFound(depth, "\(quoted(token)) is not an array index")
        }
        guard index < count else {
            throw notFound(depth, "index \(index) is out of range (the array has \(count) element\(count == 1 ? "" : "s"))")
        }
        return index
    }

    /// The array index a token spells: `0` or digits without a leading zero; `nil` otherwise.
    static func arrayIndex(_ token: String) -> Int? {
        let utf8 = token.utf8
        guard let first = utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
        if first == UInt8(ascii: "0") { return utf8.count == 1 ? 0 : nil }
        var value = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            value = sum
        }
        return value
    }

    /// An error for a failure at token `depth`, naming the whole pointer.
    func notFound(_ depth: Int, _ detail: String) -> JSONPointerError {
        JSONPointerError(message: "\(quoted(description)): \(detail)")
    }

    /// The pointer made of the first `depth` tokens, quoted, for messages.
    func prefixDescription(_ depth: Int) -> String {
        quoted(JSONPointer(tokens: Array(tokens.prefix(depth))).description)
    }
}

extension JSONValue {
    /// The value at `pointer`, or `nil` when it does not resolve.
    public subscript(pointer: JSONPointer) -> JSONValue? {
        try? pointer.resolve(in: self)
    }
}

/// "an object", "a string", "null", for messages.
func article(_ typeName: String) -> String {
    if typeName == "null" { return typeName }
    return (typeName.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + typeName
}
