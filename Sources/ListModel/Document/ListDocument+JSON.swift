// The canonical JSON form of a list document (docs/DOCUMENT.md): members in the
// documented order, defaults filled in, optional members absent when unset.

extension ListDocument {
    /// The canonical JSON form: `ListDocument(json: doc.json) == doc` for every valid document.
    public var json: JSONValue {
        var members: [JSONObject.Member] = [
            ("title", .string(title)),
            ("columns", .array(columns.map(\.json))),
            ("sections", .array(sections.map { $0.json(columns: columns) })),
        ]
        if let emptyText { members.append(("emptyText", .string(emptyText))) }
        if let state { members.append(("state", state.json)) }
        if let rowHeight { members.append(("rowHeight", .number(rowHeight))) }
        if let estimatedRowHeight { members.append(("estimatedRowHeight", .number(estimatedRowHeight))) }
        return .object(JSONObject(uniqueMembers: members))
    }
}

extension Column {
    /// `{"key", "title", "kind"}`.
    public var json: JSONValue {
        .object(
            JSONObject(uniqueMembers: [
                ("key", .string(key)), ("title", .string(title)), ("kind", .string(kind.rawValue)),
            ]))
    }
}

extension Section {
    /// `{"key", "header", "footer", "collapsible", "collapsed", "rows"}`.
    ///
    /// Cells appear in the order of their keys: use ``json(columns:)`` (as `ListDocument.json`
    /// does) for the list's column order.
    public var json: JSONValue { json(columns: nil) }

    /// The canonical form with each row's cells in the order of `columns`.
    public func json(columns: [Column]?) -> JSONValue {
        .object(
            JSONObject(uniqueMembers: [
                ("key", .string(key)),
                ("header", header.map(JSONValue.string) ?? .null),
                ("footer", footer.map(JSONValue.string) ?? .null),
                ("collapsible", .bool(collapsible)),
                ("collapsed", .bool(collapsed)),
                ("rows", .array(rows.map { $0.json(columns: columns) })),
            ]))
    }
}

extension Row {
    /// `{"key", "cells", "href"?, "style"}` with cells in the order of their keys.
    ///
    /// Use ``json(columns:)`` for the list's column order (the canonical form).
    public var json: JSONValue { json(columns: nil) }

    /// The canonical form with cells in the order of `columns`; cells naming no column
    /// in `columns` follow in key order. `nil` orders all cells by key.
    public func json(columns: [Column]?) -> JSONValue {
        // Members go straight into the object's storage (no array of members to copy from):
        // the diff builds one of these per added row.
        let storage = JSONObjectStorage.make(capacity: href == nil ? 3 : 4)
        storage.append(JSONObjectEntry(key: "key", value: .string(key)))
        storage.append(JSONObjectEntry(key: "cells", value: .object(cellsJSON(columns: columns))))
        if let href { storage.append(JSONObjectEntry(key: "href", value: .string(href))) }
        storage.append(JSONObjectEntry(key: "style", value: .string(style.rawValue)))
        return .object(JSONObject(storage: storage))
    }

    /// The `cells` object, ordered by `columns` (then by key for the rest).
    func cellsJSON(columns: [Column]?) -> JSONObject {
        guard !cells.isEmpty else { return JSONObject() }
        let storage = JSONObjectStorage.make(capacity: cells.count)
        if let columns {
            cells.withPackedCells { packed in
                for (position, column) in columns.enumerated() {
                    var key = column.key
                    let index = key.withUTF8 { packed.index(ofKey: $0, hint: position) }
                    if let index { storage.append(JSONObjectEntry(key: column.key, value: packed[index].value.json)) }
                }
            }
            if storage.count == cells.count { return JSONObject(storage: storage) }
            let declared = Set(columns.map(\.key))
            for key in cells.keys.sorted() where !declared.contains(key) {
                storage.append(JSONObjectEntry(key: key, value: cells[key]!.json))
            }
        } else {
            for key in cells.keys.sorted() { storage.append(JSONObjectEntry(key: key, value: cells[key]!.json)) }
        }
        return JSONObject(storage: storage)
    }
}

extension PackedValue {
    /// The value as it appears in a row's `cells` (as `CellValue.json`).
    var json: JSONValue {
        func string(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue { .string(String(decoding: bytes, as: UTF8.self)) }
        switch self {
        case .text(let text):
            return string(text)
        case .number(let number):
            return .number(number)
        case .link(let text, let href):
            return .object(JSONObject(uniqueMembers: [("text", string(text)), ("href", string(href))]))
        case .image(let src, let alt, let width, let height):
            var members: [JSONObject.Member] = [("src", string(src)), ("alt", string(alt))]
            if let width { members.append(("width", .number(width))) }
            if let height { members.append(("height", .number(height))) }
            return .object(JSONObject(uniqueMembers: members))
        }
    }
}

extension CellValue {
    /// The value as it appears in a row's `cells`: a string, a number,
    /// `{"text", "href"}` or `{"src", "alt", "width"?, "height"?}`.
    public var json: JSONValue {
        switch self {
        case .text(let text):
            return .string(text)
        case .number(let number):
            return .number(number)
        case .link(let text, let href):
            return .object(JSONObject(uniqueMembers: [("text", .string(text)), ("href", .string(href))]))
        case .image(let src, let alt, let width, let height):
            var members: [JSONObject.Member] = [("src", .string(src)), ("alt", .string(alt))]
            if let width { members.append(("width", .number(width))) }
            if let height { members.append(("height", .number(height))) }
            return .object(JSONObject(uniqueMembers: members))
        }
    }
}

extension ListState {
    /// `{"kind": "loading"}` or `{"kind": "error", "message"}`.
    public var json: JSONValue {
        switch self {
        case .loading:
            return .object(JSONObject(uniqueMembers: [("kind", "loading")]))
        case .error(let message):
            return .object(JSONObject(uniqueMembers: [("kind", "error"), ("message", .string(message))]))
        }
    }
}
