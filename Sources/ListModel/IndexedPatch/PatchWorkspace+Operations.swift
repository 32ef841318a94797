// The operations of RFC 6902 on a `PatchWorkspace`: each path is followed through the list's
// structure (document, sections, section, rows, row) as far as it goes, then through plain JSON.
// Results and error messages are those of `JSONPatch.apply(to:)` on the whole document.

extension PatchWorkspace {
    /// Applies every operation in order; on failure the error names the operation, as
    /// `JSONPatch.apply(to:)` does (the workspace is then half edited: throw it away).
    mutating func apply(_ patch: JSONPatch) throws(JSONPatchError) {
        for (index, operation) in patch.operations.enumerated() {
            do {
                try apply(operation)
            } catch {
                throw JSONPatchError(kind: .failed, operationIndex: index, message: error.message)
            }
        }
    }

    mutating func apply(_ operation: JSONPatchOperation) throws(JSONPointerError) {
        if whole != nil {
            try operation.apply(to: &whole!)
            return
        }
        switch operation {
        case .add(let path, let value):
            try add(.json(value), at: path)
        case .remove(let path):
            _ = try remove(at: path)
        case .replace(let path, let value):
            try replace(at: path, with: .json(value))
        case .move(let from, let path):
            if from.isPrefix(of: path) {
                guard from.tokens.count == path.tokens.count else {
                    throw JSONPointerError(
                        message: "cannot move \(quoted(from.description)) into its own child \(quoted(path.description))")
                }
                _ = try read(at: from)  // the source must exist even when nothing moves
                return
            }
            try add(try remove(at: from), at: path)
        case .copy(let from, let path):
            try add(.json(try read(at: from)), at: path)
        case .test(let path, let expected):
            let actual = try read(at: path)
            guard actual == expected else {
                throw JSONPointerError(
                    message: "\(quoted(path.description)): test failed: the value is \(excerpt(actual)), expected \(excerpt(expected))")
            }
        }
    }

    // MARK: Reading

    /// The value at `path`, as JSON.
    func read(at path: JSONPointer) throws(JSONPointerError) -> JSONValue {
        let tokens = path.tokens
        guard let first = tokens.first else { return json() }
        guard let sections, isToken(first, "sections") else {
            return try path.resolve(in: .object(members), below: 0)
        }
        if tokens.count == 1 { return .array(sections.map(json(of:))) }
        let slot = sections[try path.existingIndex(tokens[1], count: sections.count, depth: 1)]
        if tokens.count == 2 { return json(of: slot) }
        let section: EditedSection
        switch slot {
        case .json(let value): return try path.resolve(in: value, below: 2)
        case .original(let index): section = edited(index)
        case .edited(let edited): section = edited
        }
        guard let rows = section.rows, isToken(tokens[2], "rows") else {
            return try path.resolve(in: .object(section.members), below: 2)
        }
        if tokens.count == 3 { return json(of: rows) }
        let row = rows.slot(at: try path.existingIndex(tokens[3], count: rows.count, depth: 3))
        return try path.resolve(in: json(of: row), below: 4)
    }

    // MARK: Removing

    /// Removes the value at `path` and returns it, structured where it was.
    mutating func remove(at path: JSONPointer) throws(JSONPointerError) -> Detached {
        let tokens = path.tokens
        guard let first = tokens.first else { throw JSONPointerError(message: "\"\": cannot remove the whole document") }
        guard let sectionCount = sections?.count, isToken(first, "sections") else {
            return .json(
                try withMembers { (object: inout JSONValue) throws(JSONPointerError) in try path.removeValue(in: &object, below: 0) })
        }
        if tokens.count == 1 {
            let taken = sections!
            sections = nil
            members.removeValue(forKey: "sections")
            return .sections(taken)
        }
        let index = try path.existingIndex(tokens[1], count: sectionCount, depth: 1)
        if tokens.count == 2 { return .section(sections!.remove(at: index)) }
        var section = takeSection(index)
        defer { putBack(section, at: index) }
        do {
            switch section {
            case .json(var value):
                section = .json(.null)  // so that `value` is not shared while it changes
                defer { section = .json(value) }
                return .json(try path.removeValue(in: &value, below: 2))
            case .structured(var edited):
                section = .json(.null)  // so that `edited` is not shared while it changes
                defer { section = .structured(edited) }
                guard edited.rows != nil, isToken(tokens[2], "rows") else {
                    return .json(
                        try edited.withMembers { (object: inout JSONValue) throws(JSONPointerError) in
                            try path.removeValue(in: &object, below: 2)
                        })
                }
                if tokens.count == 3 {
                    let rows = edited.rows!
                    edited.rows = nil
                    edited.members.removeValue(forKey: "rows")
                    return .rows(rows)
                }
                let row = try path.existingIndex(tokens[3], count: edited.rows!.count, depth: 3)
                if tokens.count == 4 { return .row(edited.rows!.remove(at: row)) }
                var value = json(of: edited.rows!.slot(at: row))
                let removed = try path.removeValue(in: &value, below: 4)
                edited.rows!.replace(at: row, with: .json(value))
                return .json(removed)
            }
        }
    }

    // MARK: Adding and replacing

    /// Adds `value` at `path` (RFC 6902 `add`).
    mutating func add(_ value: Detached, at path: JSONPointer) throws(JSONPointerError) {
        try put(value, at: path, replacing: false)
    }

    /// Replaces the value at `path` (RFC 6902 `replace`: the target must exist).
    mutating func replace(at path: JSONPointer, with value: Detached) throws(JSONPointerError) {
        try put(value, at: path, replacing: true)
    }

    private mutating func put(_ value: Detached, at path: JSONPointer, replacing: Bool) throws(JSONPointerError) {
        let tokens = path.tokens
        guard let first = tokens.first else {
            whole = json(of: value)
            sections = nil
            return
        }
        guard let sectionCount = sections?.count, isToken(first, "sections") else {
            if tokens.count == 1, isToken(first, "sections"), case .sections(let slots) = value {
                try setMember(Self.placeholder, at: path, replacing: replacing)
                sections = slots
                return
            }
            try setMember(json(of: value), at: path, replacing: replacing)
            return
        }
        if tokens.count == 1 {  // the `sections` member, which exists
            if case .sections(let slots) = value {
                sections = slots
            } else {
                sections = nil
                members["sections"] = json(of: value)
            }
            return
        }
        if tokens.count == 2 {
            if replacing {
                sections![try path.existingIndex(tokens[1], count: sectionCount, depth: 1)] = sectionSlot(value)
            } else {
                sections!.insert(sectionSlot(value), at: try path.insertionIndex(tokens[1], count: sectionCount, depth: 1))
            }
            return
        }
        let index = try path.existingIndex(tokens[1], count: sectionCount, depth: 1)
        var section = takeSection(index)
        defer { putBack(section, at: index) }
        do {
            switch section {
            case .json(var object):
                section = .json(.null)  // so that `object` is not shared while it changes
                defer { section = .json(object) }
                try Self.put(json(of: value), in: &object, at: path, below: 2, replacing: replacing)
            case .structured(var edited):
                // `section` lets go of the rows while `edited` changes them: a second reference
                // made every row insert copy the chunk it went into (100,000 adds: ~10x slower).
                section = .json(.null)
                defer { section = .structured(edited) }
                guard edited.rows != nil, isToken(tokens[2], "rows") else {
                    if tokens.count == 3, isToken(tokens[2], "rows"), case .rows(let rows) = value {
                        try edited.withMembers { (object: inout JSONValue) throws(JSONPointerError) in
                            try Self.put(Self.placeholder, in: &object, at: path, below: 2, replacing: replacing)
                        }
                        edited.rows = rows
                        return
                    }
                    let json = json(of: value)
                    try edited.withMembers { (object: inout JSONValue) throws(JSONPointerError) in
                        try Self.put(json, in: &object, at: path, below: 2, replacing: replacing)
                    }
                    return
                }
                let count = edited.rows!.count
                switch tokens.count {
                case 3:  // the `rows` member, which exists
                    if case .rows(let rows) = value {
                        edited.rows = rows
                    } else {
                        edited.rows = nil
                        edited.members["rows"] = json(of: value)
                    }
                case 4:
                    if replacing {
                        edited.rows!.replace(at: try path.existingIndex(tokens[3], count: count, depth: 3), with: rowSlot(value))
                    } else {
                        edited.rows!.insert(rowSlot(value), at: try path.insertionIndex(tokens[3], count: count, depth: 3))
                    }
                default:
                    let row = try path.existingIndex(tokens[3], count: count, depth: 3)
                    var object = json(of: edited.rows!.slot(at: row))
                    try Self.put(json(of: value), in: &object, at: path, below: 4, replacing: replacing)
                    edited.rows!.replace(at: row, with: .json(object))
                }
            }
        }
    }

    /// `add` or `replace` on the document object's members (not the tracked sections).
    private mutating func setMember(_ value: JSONValue, at path: JSONPointer, replacing: Bool) throws(JSONPointerError) {
        try withMembers { (object: inout JSONValue) throws(JSONPointerError) in
            try Self.put(value, in: &object, at: path, below: 0, replacing: replacing)
        }
    }

    private static func put(
        _ value: JSONValue, in subtree: inout JSONValue, at path: JSONPointer, below depth: Int,
        replacing: Bool
    ) throws(JSONPointerError) {
        if replacing {
            try path.replaceValue(value, in: &subtree, below: depth)
        } else {
            try path.addValue(value, in: &subtree, below: depth)
        }
    }
}
