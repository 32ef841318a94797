// Phase 5 of the keyed diff: fine-grained operations on what changed inside kept rows,
// kept sections and the list itself, at their final positions. A value is replaced whole
// when its fine-grained operations would be larger than the replacement.

extension PatchWriter {
    /// Operations turning row `old` into `new` (same key) at `path`.
    ///
    /// Cell operations come in column order (cells outside the columns last, by key).
    /// - Parameter cellsChanged: whether `old.cells != new.cells` (the caller knows already).
    mutating func appendRowChanges(
        from old: Row, to new: Row, cellsChanged: Bool, at path: OperationPath, columns: [Column]
    ) {
        var fine = PatchWriter()
        if cellsChanged {
            // Each new cell looked up in the old row, then the old cells the new row lacks.
            var changes: [(order: Int, key: String, before: CellValue?, after: CellValue?)] = []
            var matched = 0
            for (key, after) in new.cells {
                let before = old.cells[key]
                if before != nil { matched += 1 }
                if before != after { changes.append((Self.order(of: key, in: columns), key, before, after)) }
            }
            if matched < old.cells.count {
                for (key, before) in old.cells where new.cells[key] == nil {
                    changes.append((Self.order(of: key, in: columns), key, before, nil))
                }
            }
            if changes.count > 1 { changes.sort { ($0.order, $0.key) < ($1.order, $1.key) } }
            for change in changes {
                fine.appendCellChange(from: change.before, to: change.after, key: change.key, row: path)
            }
        }
        if old.href != new.href {
            let hrefPath = path.appending("href")
            switch (old.href, new.href) {
            case (nil, let href?): fine.add(hrefPath, .string(href), valueSize: CanonicalSize.string(href))
            case (_?, let href?): fine.replace(hrefPath, .string(href), valueSize: CanonicalSize.string(href))
            default: fine.remove(hrefPath)
            }
        }
        if old.style != new.style {
            let style = new.style.rawValue
            fine.replace(path.appending("style"), .string(style), valueSize: CanonicalSize.string(style))
        }
        // Weigh against one replace of the row: a cheap lower bound of its size first.
        let rowLowerBound = #"{"key":"","cells":{},"style":"muted"}"#.utf8.count + new.key.utf8.count + 5 * new.cells.count
        if fine.contentSize <= Self.valueOperationSize(op: "replace", path: path, valueSize: rowLowerBound) {
            append(contentsOf: fine.operations, size: fine.contentSize)
            return
        }
        let wholeSize = Self.valueOperationSize(op: "replace", path: path, valueSize: CanonicalSize.row(new))
        if fine.contentSize <= wholeSize {
            append(contentsOf: fine.operations, size: fine.contentSize)
        } else {
            append(contentsOf: [.replace(path: path.pointer, value: new.json(columns: columns))], size: wholeSize)
        }
    }

    /// The position of the column `key` names, or past the end for a key no column has.
    private static func order(of key: String, in columns: [Column]) -> Int {
        columns.firstIndex { $0.key == key } ?? columns.count
    }

    /// `add`, `replace` or `remove` of one cell; nothing when it did not change.
    private mutating func appendCellChange(from old: CellValue?, to new: CellValue?, key: String, row: OperationPath) {
        guard old != new else { return }
        let path = row.appending("cells", key)
        switch (old, new) {
        case (nil, let value?): add(path, value.json, valueSize: CanonicalSize.cell(value))
        case (_?, let value?): replace(path, value.json, valueSize: CanonicalSize.cell(value))
        default: remove(path)
        }
    }

    /// Operations on the header, footer and flags of a kept section, now at `index`.
    mutating func appendSectionChanges(from old: Section, to new: Section, at index: Int) {
        let path = OperationPath.section(index)
        if old.header != new.header {
            replace(path.appending("header"), Self.json(new.header), valueSize: CanonicalSize.optionalString(new.header))
        }
        if old.footer != new.footer {
            replace(path.appending("footer"), Self.json(new.footer), valueSize: CanonicalSize.optionalString(new.footer))
        }
        if old.collapsible != new.collapsible {
            replace(path.appending("collapsible"), .bool(new.collapsible), valueSize: new.collapsible ? 4 : 5)
        }
        if old.collapsed != new.collapsed {
            replace(path.appending("collapsed"), .bool(new.collapsed), valueSize: new.collapsed ? 4 : 5)
        }
    }

    /// Operations on the list's own members: title, columns, emptyText, state, row heights.
    mutating func appendListChanges(from old: ListDocument, to new: ListDocument) {
        if old.title != new.title {
            replace(OperationPath.member("title"), .string(new.title), valueSize: CanonicalSize.string(new.title))
        }
        if old.columns != new.columns { appendColumnChanges(from: old.columns, to: new.columns) }
        appendOptionalMember("emptyText", old.emptyText, new.emptyText) { (.string($0), CanonicalSize.string($0)) }
        appendOptionalMember("state", old.state, new.state) { ($0.json, CanonicalSize.state($0)) }
        appendOptionalMember("rowHeight", old.rowHeight, new.rowHeight) { (.number($0), CanonicalSize.number($0)) }
        appendOptionalMember("estimatedRowHeight", old.estimatedRowHeight, new.estimatedRowHeight) {
            (.number($0), CanonicalSize.number($0))
        }
    }

    /// Per-member replaces when the columns keep their keys and order, else one replace.
    private mutating func appendColumnChanges(from old: [Column], to new: [Column]) {
        let path = OperationPath.member("columns")
        let wholeSize = Self.valueOperationSize(op: "replace", path: path, valueSize: CanonicalSize.columns(new))
        if old.count == new.count && zip(old, new).allSatisfy({ $0.key == $1.key }) {
            var fine = PatchWriter()
            for (index, (before, after)) in zip(old, new).enumerated() {
                let columnPath = path.appending(String(index))
                if before.title != after.title {
                    fine.replace(
                        columnPath.appending("title"), .string(after.title),
                        valueSize: CanonicalSize.string(after.title))
                }
                if before.kind != after.kind {
                    fine.replace(
                        columnPath.appending("kind"), .string(after.kind.rawValue),
                        valueSize: CanonicalSize.string(after.kind.rawValue))
                }
            }
            if fine.contentSize <= wholeSize {
                append(contentsOf: fine.operations, size: fine.contentSize)
                return
            }
        }
        append(contentsOf: [.replace(path: path.pointer, value: .array(new.map(\.json)))], size: wholeSize)
    }

    /// `add`, `replace` or `remove` of an optional member of the list.
    private mutating func appendOptionalMember<T: Equatable>(
        _ name: String, _ old: T?, _ new: T?, _ json: (T) -> (JSONValue, Int)
    ) {
        guard old != new else { return }
        let path = OperationPath.member(name)
        switch (old, new) {
        case (nil, let value?):
            let (value, size) = json(value)
            add(path, value, valueSize: size)
        case (_?, let value?):
            let (value, size) = json(value)
            replace(path, value, valueSize: size)
        default:
            remove(path)
        }
    }

    /// The size of the operations without the enclosing brackets.
    var contentSize: Int { size - 2 }

    private static func json(_ string: String?) -> JSONValue { string.map(JSONValue.string) ?? .null }
}
