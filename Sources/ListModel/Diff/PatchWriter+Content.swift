// Phase 5 of the keyed diff: fine-grained operations on what changed inside kept rows,
// kept sections and the list itself, at their final positions. A value is replaced whole
// when its fine-grained operations would be larger than the replacement.

extension PatchWriter {
    /// Operations turning row `old` into `new` (same key) at `path`.
    ///
    /// Cells are compared in column order, then any cell outside the columns in key order.
    mutating func appendRowChanges(from old: Row, to new: Row, at path: JSONPointer, columns: [Column]) {
        var fine = PatchWriter()
        var seenOld = 0
        var seenNew = 0
        for column in columns {
            let before = old.cells[column.key]
            let after = new.cells[column.key]
            if before != nil { seenOld += 1 }
            if after != nil { seenNew += 1 }
            fine.appendCellChange(from: before, to: after, key: column.key, row: path)
        }
        if seenOld < old.cells.count || seenNew < new.cells.count {
            let declared = Set(columns.map(\.key))
            let rest = Set(old.cells.keys).union(new.cells.keys).subtracting(declared).sorted()
            for key in rest { fine.appendCellChange(from: old.cells[key], to: new.cells[key], key: key, row: path) }
        }
        if old.href != new.href {
            let hrefPath = Path.appending(path, "href")
            switch (old.href, new.href) {
            case (nil, let href?): fine.add(hrefPath, .string(href), valueSize: CanonicalSize.string(href))
            case (_?, let href?): fine.replace(hrefPath, .string(href), valueSize: CanonicalSize.string(href))
            default: fine.remove(hrefPath)
            }
        }
        if old.style != new.style {
            let style = new.style.rawValue
            fine.replace(Path.appending(path, "style"), .string(style), valueSize: CanonicalSize.string(style))
        }
        let wholeSize = Self.valueOperationSize(op: "replace", path: path, valueSize: CanonicalSize.row(new))
        if fine.contentSize <= wholeSize {
            append(contentsOf: fine.operations, size: fine.contentSize)
        } else {
            append(contentsOf: [.replace(path: path, value: new.json(columns: columns))], size: wholeSize)
        }
    }

    /// `add`, `replace` or `remove` of one cell; nothing when it did not change.
    private mutating func appendCellChange(from old: CellValue?, to new: CellValue?, key: String, row: JSONPointer) {
        guard old != new else { return }
        let path = Path.appending(row, "cells", key)
        switch (old, new) {
        case (nil, let value?): add(path, value.json, valueSize: CanonicalSize.cell(value))
        case (_?, let value?): replace(path, value.json, valueSize: CanonicalSize.cell(value))
        default: remove(path)
        }
    }

    /// Operations on the header, footer and flags of a kept section, now at `index`.
    mutating func appendSectionChanges(from old: Section, to new: Section, at index: Int) {
        let path = Path.section(index)
        if old.header != new.header {
            replace(Path.appending(path, "header"), Self.json(new.header), valueSize: CanonicalSize.optionalString(new.header))
        }
        if old.footer != new.footer {
            replace(Path.appending(path, "footer"), Self.json(new.footer), valueSize: CanonicalSize.optionalString(new.footer))
        }
        if old.collapsible != new.collapsible {
            replace(Path.appending(path, "collapsible"), .bool(new.collapsible), valueSize: new.collapsible ? 4 : 5)
        }
        if old.collapsed != new.collapsed {
            replace(Path.appending(path, "collapsed"), .bool(new.collapsed), valueSize: new.collapsed ? 4 : 5)
        }
    }

    /// Operations on the list's own members: title, columns, emptyText, state, row heights.
    mutating func appendListChanges(from old: ListDocument, to new: ListDocument) {
        if old.title != new.title {
            replace(Path.member("title"), .string(new.title), valueSize: CanonicalSize.string(new.title))
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
        let path = Path.member("columns")
        let wholeSize = Self.valueOperationSize(op: "replace", path: path, valueSize: CanonicalSize.columns(new))
        if old.count == new.count && zip(old, new).allSatisfy({ $0.key == $1.key }) {
            var fine = PatchWriter()
            for (index, (before, after)) in zip(old, new).enumerated() {
                let columnPath = Path.appending(path, String(index))
                if before.title != after.title {
                    fine.replace(
                        Path.appending(columnPath, "title"), .string(after.title),
                        valueSize: CanonicalSize.string(after.title))
                }
                if before.kind != after.kind {
                    fine.replace(
                        Path.appending(columnPath, "kind"), .string(after.kind.rawValue),
                        valueSize: CanonicalSize.string(after.kind.rawValue))
                }
            }
            if fine.contentSize <= wholeSize {
                append(contentsOf: fine.operations, size: fine.contentSize)
                return
            }
        }
        append(contentsOf: [.replace(path: path, value: .array(new.map(\.json)))], size: wholeSize)
    }

    /// `add`, `replace` or `remove` of an optional member of the list.
    private mutating func appendOptionalMember<T: Equatable>(
        _ name: String, _ old: T?, _ new: T?, _ json: (T) -> (JSONValue, Int)
    ) {
        guard old != new else { return }
        let path = Path.member(name)
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
