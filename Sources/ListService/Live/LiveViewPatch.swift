import HTMLRenderer
import ListModel

/// Translates the keyed diff of two rendered lists (`LiveView.list`) into operations on the
/// view document of docs/LIVE.md, where a row is `{"key", "html"}` and a section is
/// `{"key", "header", "footer", "rows"}`.
///
/// Members the view does not have (a row's `style` and `href`, a section's `collapsible` and
/// `collapsed`, the list's `columns` and the rest) are constant in rendered lists, so the
/// diff never touches them; operations on them are dropped all the same.
package enum LiveViewPatch {
    package static func translate(_ patch: JSONPatch) -> [JSONPatchOperation] {
        patch.operations.compactMap(translate)
    }

    package static func translate(_ operation: JSONPatchOperation) -> JSONPatchOperation? {
        switch operation {
        case .add(let path, let value):
            guard let (path, value) = translate(path, value) else { return nil }
            return .add(path: path, value: value)
        case .replace(let path, let value):
            guard let (path, value) = translate(path, value) else { return nil }
            return .replace(path: path, value: value)
        case .test(let path, let value):
            guard let (path, value) = translate(path, value) else { return nil }
            return .test(path: path, value: value)
        case .remove(let path):
            return viewPath(path).map { .remove(path: $0) }
        case .move(let from, let path):
            guard let from = viewPath(from), let path = viewPath(path) else { return nil }
            return .move(from: from, path: path)
        case .copy(let from, let path):
            guard let from = viewPath(from), let path = viewPath(path) else { return nil }
            return .copy(from: from, path: path)
        }
    }

    /// The view path and value for a list path and value; nil for members the view lacks.
    package static func translate(_ path: JSONPointer, _ value: JSONValue) -> (JSONPointer, JSONValue)? {
        guard let target = viewPath(path) else { return nil }
        let tokens = path.tokens
        switch tokens.count {
        case 0: return nil  // a whole-list replace: `LiveView.patch` replaces the whole view instead
        case 1 where tokens[0] == "sections": return (target, .array((value.arrayValue ?? []).map(viewSection)))
        case 2: return (target, viewSection(fromList: value))
        case 3 where tokens[2] == "rows": return (target, .array((value.arrayValue ?? []).map(viewRow)))
        case 4: return (target, viewRow(fromList: value))
        case 5 where tokens[4] == "cells": return (target, value.objectValue?["html"] ?? .null)
        default: return (target, value)
        }
    }

    /// The view path for a list path, or nil when the view has no such member.
    package static func viewPath(_ path: JSONPointer) -> JSONPointer? {
        let tokens = path.tokens
        guard let first = tokens.first else { return path }
        switch first {
        case "title": return path
        case "sections": break
        default: return nil
        }
        guard tokens.count > 2 else { return path }  // /sections, /sections/i
        switch tokens[2] {
        case "key", "header", "footer": return tokens.count == 3 ? path : nil
        case "rows": break
        default: return nil
        }
        guard tokens.count > 4 else { return path }  // …/rows, …/rows/j
        switch tokens[4] {
        case "key": return tokens.count == 5 ? path : nil
        case "cells":
            if tokens.count == 5 || (tokens.count == 6 && tokens[5] == "html") {
                return JSONPointer(tokens: Array(tokens[0..<4]) + ["html"])
            }
            return nil
        default: return nil
        }
    }

    /// `{"key", "html"}` from a rendered row's canonical JSON.
    package static func viewRow(fromList row: JSONValue) -> JSONValue {
        .object(
            JSONObject([
                ("key", asParsed(row["/key"])),
                ("html", row["/cells/html"] ?? .null),
            ]))
    }

    /// `{"key", "header", "footer", "rows"}` from a rendered section's canonical JSON.
    package static func viewSection(fromList section: JSONValue) -> JSONValue {
        .object(
            JSONObject([
                ("key", asParsed(section["/key"])),
                ("header", section["/header"] ?? .null),
                ("footer", section["/footer"] ?? .null),
                ("rows", .array((section["/rows"]?.arrayValue ?? []).map(viewRow))),
            ]))
    }

}

/// A key as the page's `data-row`/`data-section` attribute reads back in a browser (U+0000
/// becomes U+FFFD), so the client's keys match. The diff itself keys by the true keys, so keys
/// that differ only there never collide in it.
private func asParsed(_ key: JSONValue?) -> JSONValue {
    guard case .string(let text)? = key else { return key ?? .null }
    return .string(HTMLRenderer.asParsed(text))
}
