// Phase 5 of the keyed diff: fine-grained operations on what changed inside kept sections
// and the list itself (rows: RowChangeWriter.swift). A value is replaced whole when its
// fine-grained operations would be larger than the replacement.

extension PatchWriter {
    /// Operations on the header, footer and flags of a kept section, now at `index`.
    mutating func appendSectionChanges(from old: Section, to new: Section, at index: Int) {
        let path = OperationPath.section(index)
        if !optionalUTF8Equal(old.header, new.header) {
            replace(path.appending("header"), Self.json(new.header), valueSize: CanonicalSize.optionalString(new.header))
        }
        if !optionalUTF8Equal(old.footer, new.footer) {
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
        if !utf8Equal(old.title, new.title) {
            replace(OperationPath.member("title"), .string(new.title), valueSize: CanonicalSize.string(new.title))
        }
        if old.columns != new.columns { appendColumnChanges(from: old.columns, to: new.columns) }
        appendOptionalMember("emptyText", old.emptyText, new.emptyText, same: utf8Equal) { (.string($0), CanonicalSize.string($0)) }
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
        if old.count == new.count && zip(old, new).allSatisfy({ utf8Equal($0.key, $1.key) }) {
            var fine = PatchWriter()
            for (index, (before, after)) in zip(old, new).enumerated() {
                let columnPath = path.appending(String(index))
                if !utf8Equal(before.title, after.title) {
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
                append(contentsOf: fine)
                return
            }
        }
        replace(path, .array(new.map(\.json)), valueSize: CanonicalSize.columns(new))
    }

    /// `add`, `replace` or `remove` of an optional member of the list (`same`: equal values;
    /// texts compare by their bytes).
    private mutating func appendOptionalMember<T: Equatable>(
        _ name: String, _ old: T?, _ new: T?, same: (T, T) -> Bool = (==), _ json: (T) -> (JSONValue, Int)
    ) {
        switch (old, new) {
        case (nil, nil): return
        case (let old?, let new?) where same(old, new): return
        default: break
        }
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

    private static func json(_ string: String?) -> JSONValue { string.map(JSONValue.string) ?? .null }
}
