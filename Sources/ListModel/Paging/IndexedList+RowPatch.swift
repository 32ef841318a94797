extension IndexedList {
    /// The row edit that `patch` makes when every operation stays inside one row
    /// (`/sections/S/rows/R/…`, the same S and R throughout), applies, and leaves a valid row
    /// with the same key; nil otherwise.
    ///
    /// This is how a PATCH of one row's cells avoids applying to, re-reading and diffing the
    /// whole document: the result equals `ListDocument(json: patch.apply(to: document.json))`
    /// for that case. On nil, apply the patch to the whole document: it gives the answer, or
    /// the error with its full pointer. (`applying(_:limits:)` handles every patch at the cost of
    /// what it touches, this case included; the server uses it.)
    public func rowEdit(applying patch: JSONPatch) -> IndexedRowEdit? {
        guard let first = patch.operations.first,
            let (section, index) = Self.rowAddress(of: first.path)
        else { return nil }
        var relative: [JSONPatchOperation] = []
        relative.reserveCapacity(patch.operations.count)
        for operation in patch.operations {
            guard let inRow = Self.relative(operation, toRow: (section, index)) else { return nil }
            relative.append(inRow)
        }
        guard section < document.sections.count, index < document.sections[section].rows.count else { return nil }
        let row = document.sections[section].rows[index]
        guard let patched = try? JSONPatch(operations: relative).apply(to: row.json(columns: document.columns)),
            let edited = try? Row(json: patched, columns: document.columns),
            utf8Equal(edited.key, row.key)
        else { return nil }
        return try? replacingRow(edited)
    }

    /// The section and row indexes of a pointer strictly inside a row, or nil.
    private static func rowAddress(of pointer: JSONPointer) -> (section: Int, row: Int)? {
        let tokens = pointer.tokens
        guard tokens.count > 4, tokens[0] == "sections", tokens[2] == "rows",
            let section = JSONPointer.arrayIndex(tokens[1]), let row = JSONPointer.arrayIndex(tokens[3])
        else { return nil }
        return (section, row)
    }

    /// `operation` with its pointers made relative to the row at `address`, or nil when one
    /// of them leaves that row (or is the row itself).
    private static func relative(_ operation: JSONPatchOperation, toRow address: (section: Int, row: Int)) -> JSONPatchOperation? {
        func inRow(_ pointer: JSONPointer) -> JSONPointer? {
            guard let found = rowAddress(of: pointer), found == address else { return nil }
            return JSONPointer(tokens: Array(pointer.tokens.dropFirst(4)))
        }
        switch operation {
        case .add(let path, let value): return inRow(path).map { .add(path: $0, value: value) }
        case .remove(let path): return inRow(path).map { .remove(path: $0) }
        case .replace(let path, let value): return inRow(path).map { .replace(path: $0, value: value) }
        case .test(let path, let value): return inRow(path).map { .test(path: $0, value: value) }
        case .move(let from, let path):
            guard let from = inRow(from), let path = inRow(path) else { return nil }
            return .move(from: from, path: path)
        case .copy(let from, let path):
            guard let from = inRow(from), let path = inRow(path) else { return nil }
            return .copy(from: from, path: path)
        }
    }
}
