import ListModel

// Random RFC 6902 patches of list documents, for the differential test of
// `IndexedList.applying(_:)` against applying to the whole document (test utility; SPI).

extension RandomListEdits {
    /// A random patch of `document`: 1 to `maxOperations` operations of every kind, on rows,
    /// cells, sections, the list's members and the document itself, drawn against the document
    /// as the operations before them leave it. Most apply and give a valid list; some fail
    /// part way (a missing path, a failed test) or give an invalid one (a duplicate key, a
    /// value that does not fit its column, an unknown member).
    public mutating func patch(of document: ListDocument, maxOperations: Int = 6) -> JSONPatch {
        var state = document.json
        var operations: [JSONPatchOperation] = []
        for _ in 0..<Int.random(in: 1...maxOperations, using: &random) {
            let operation = randomOperation(in: state)
            operations.append(operation)
            if let next = try? JSONPatch(operations: [operation]).apply(to: state) { state = next }
        }
        return JSONPatch(operations: operations)
    }

    private mutating func randomOperation(in state: JSONValue) -> JSONPatchOperation {
        let sections = state["/sections"]?.arrayValue ?? []
        let columns = (state["/columns"]?.arrayValue ?? []).compactMap { column -> Column? in
            guard let key = column["/key"]?.stringValue else { return nil }
            return Column(key: key, kind: column["/kind"]?.stringValue.flatMap(ColumnKind.init(rawValue:)) ?? .text)
        }
        func pointer(_ tokens: String...) -> JSONPointer { JSONPointer(tokens: tokens) }
        // A section index: usually an existing one, sometimes one past the end or nonsense.
        func sectionToken(forAdding: Bool = false) -> String {
            switch Int.random(in: 0..<50, using: &random) {
            case 0: return forAdding ? "-" : String(sections.count)
            case 1: return ["01", "x", "-", "99"].randomElement(using: &random)!
            default: return String(Int.random(in: 0...max(0, sections.count - (forAdding ? 0 : 1)), using: &random))
            }
        }
        func rowCount(_ section: String) -> Int {
            Int(section).flatMap { $0 < sections.count ? sections[$0]["/rows"]?.arrayValue?.count : nil } ?? 0
        }
        func rowToken(_ section: String, forAdding: Bool = false) -> String {
            let count = rowCount(section)
            switch Int.random(in: 0..<50, using: &random) {
            case 0, 2, 3: return forAdding ? "-" : String(count)
            case 1: return ["01", "y", "-", "1000"].randomElement(using: &random)!
            default: return String(Int.random(in: 0...max(0, count - (forAdding ? 0 : 1)), using: &random))
            }
        }
        func existingRowKey() -> String {
            let keys = sections.flatMap { ($0["/rows"]?.arrayValue ?? []).compactMap { $0["/key"]?.stringValue } }
            return keys.randomElement(using: &random) ?? "none"
        }
        func newRow() -> JSONValue {
            var row = self.row(columns: columns.isEmpty ? Self.columns : columns).json(columns: nil)
            switch Int.random(in: 0..<12, using: &random) {
            case 0:  // a duplicate
                row = JSONValue.object(JSONObject([("key", .string(existingRowKey())), ("cells", JSONValue.object(JSONObject()))]))
            case 1: row = ["cells": JSONValue.object(JSONObject())]  // no key
            case 2: row = ["key": "bad", "cells": ["nowhere": "x"]]  // no such column
            case 3: row = ["key": .string("s\(freshKey())"), "cells": JSONValue.object(JSONObject()), "style": "loud"]
            default: break
            }
            return row
        }
        func newSection() -> JSONValue {
            var section = self.section(rows: Int.random(in: 0...3, using: &random)).json(columns: nil)
            if Int.random(in: 0..<8, using: &random) == 0, let key = sections.randomElement(using: &random)?["/key"] {
                section = .object(JSONObject([("key", key), ("rows", JSONValue.array([]))]))  // a duplicate section key
            }
            return section
        }
        func cellValue(_ column: Column) -> JSONValue {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: return .null
            case 1: return "not a number"
            case 2: return 12
            default: return cell(kind: column.kind).json
            }
        }
        let column = columns.randomElement(using: &random) ?? Column(key: "name")
        let s = sectionToken()
        let r = rowToken(s)
        switch Int.random(in: 0..<40, using: &random) {
        case 0...5:
            return .replace(path: pointer("sections", s, "rows", r, "cells", column.key), value: cellValue(column))
        case 6...7:
            return .add(path: pointer("sections", s, "rows", r, "cells", column.key), value: cellValue(column))
        case 8:
            return .remove(path: pointer("sections", s, "rows", r, "cells", column.key))
        case 9...11:
            return .add(path: pointer("sections", sectionToken(), "rows", rowToken(s, forAdding: true)), value: newRow())
        case 12...13:
            return .remove(path: pointer("sections", s, "rows", r))
        case 14:
            return .replace(path: pointer("sections", s, "rows", r), value: newRow())
        case 15...17:
            let to = sectionToken()
            return .move(from: pointer("sections", s, "rows", r), path: pointer("sections", to, "rows", rowToken(to, forAdding: true)))
        case 18:
            let to = sectionToken()
            return .copy(from: pointer("sections", s, "rows", r), path: pointer("sections", to, "rows", rowToken(to, forAdding: true)))
        case 19:
            return .replace(
                path: pointer("sections", s, "rows", r, "key"),
                value: .string(Bool.random(using: &random) ? "k\(freshKey())" : existingRowKey()))
        case 20:
            let value = Int.random(in: 0..<4, using: &random) > 0 ? (state[pointer("sections", s, "rows", r)] ?? .null) : newRow()
            return .test(path: pointer("sections", s, "rows", r), value: value)
        case 21:
            let value =
                Int.random(in: 0..<4, using: &random) > 0
                ? (state[pointer("sections", s, "rows", r, "cells")] ?? .null) : .object(JSONObject())
            return .test(path: pointer("sections", s, "rows", r, "cells"), value: value)
        case 22:
            return .replace(
                path: pointer("sections", s, "rows", r, ["style", "href"].randomElement(using: &random)!),
                value: ["muted", "/x", "javascript:x", "highlight", .null].randomElement(using: &random)!)
        case 23:
            return .add(path: pointer("sections", sectionToken(forAdding: true)), value: newSection())
        case 24:
            return .remove(path: pointer("sections", s))
        case 25:
            return .move(from: pointer("sections", s), path: pointer("sections", sectionToken(forAdding: true)))
        case 26:
            return .replace(
                path: pointer("sections", s, ["header", "footer", "key", "collapsed", "nonsense"].randomElement(using: &random)!),
                value: [.string(text()), .null, true, .string("s\(freshKey())")].randomElement(using: &random)!)
        case 27:
            let rows = (0..<Int.random(in: 0...2, using: &random)).map { _ in newRow() }
            return .replace(path: pointer("sections", s, "rows"), value: .array(rows))
        case 28:
            let to = sectionToken()
            return Bool.random(using: &random)
                ? .move(from: pointer("sections", s, "rows"), path: pointer("sections", to, "rows"))
                : .copy(from: pointer("sections", s, "rows"), path: pointer("sections", to, "rows"))
        case 29:
            return .test(
                path: pointer("sections", s),
                value: Bool.random(using: &random) ? (state[pointer("sections", s)] ?? .null) : .object(JSONObject()))
        case 30:
            return .replace(path: pointer("title"), value: Bool.random(using: &random) ? .string(text()) : 5)
        case 31:
            return Bool.random(using: &random)
                ? .add(path: pointer("emptyText"), value: .string(text()))
                : .remove(path: pointer(["emptyText", "rowHeight", "state"].randomElement(using: &random)!))
        case 32:
            return .add(
                path: pointer(["rowHeight", "estimatedRowHeight", "unknown"].randomElement(using: &random)!),
                value: [20, 0, "x"].randomElement(using: &random)!)
        case 33:
            return .replace(
                path: pointer("columns", String(Int.random(in: 0..<max(1, columns.count), using: &random)), "title"),
                value: .string(text()))
        case 34:
            return .replace(
                path: pointer("columns", String(Int.random(in: 0..<max(1, columns.count), using: &random)), "kind"),
                value: .string(ColumnKind.allCases.randomElement(using: &random)!.rawValue))
        case 35:
            return Bool.random(using: &random)
                ? .replace(path: .root, value: state)
                : .test(path: .root, value: state)
        case 36:
            return .move(from: pointer("sections", s, "rows", r), path: pointer("sections", s, "rows", r, "cells", "x"))
        case 37:
            return .replace(path: pointer("sections"), value: .array(Array(sections.reversed())))
        case 38:
            return .move(
                from: pointer("sections", s, "rows", r, "cells", column.key),
                path: pointer("sections", sectionToken(), "rows", rowToken(s), "cells", column.key))
        default:
            return .copy(from: pointer("sections", s, "rows", r, "cells"), path: pointer("sections", s, "rows", rowToken(s), "cells"))
        }
    }
}
