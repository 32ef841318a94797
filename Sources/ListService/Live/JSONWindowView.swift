import ListModel

/// The windowed `view=json` document of one window at one version (API.md section 5,
/// docs/LIVE.md): the list document holding only the window's sections and rows, plus `more`
/// (rows remain after the window) and `until` (the cursor that ends it, null when empty).
package struct JSONWindowView: Equatable {
    /// The window's part of the list: every list-level member, the sections and rows up to the
    /// window's end (with the same empty-section rule as pages).
    package var list: ListDocument
    package var more: Bool
    package var until: String?
    /// The whole document, with no `more` or `until` (a live view's `view=json` without a window).
    package var whole = false

    package init(snapshot: ListSnapshot, window: LiveWindow) {
        list = window.document(of: snapshot.list)
        more = window.rowCount(in: snapshot.list) < snapshot.list.rowCount
        until = window.until
    }

    package init(list: ListDocument, more: Bool, until: String?, whole: Bool) {
        self.list = list
        self.more = more
        self.until = until
        self.whole = whole
    }

    /// The document as the client holds it: the canonical list members, then `more` and `until`.
    package var json: JSONValue {
        guard !whole, case .object(let document) = list.json else { return list.json }
        return .object(
            JSONObject(
                document.members + [
                    ("more", .bool(more)),
                    ("until", until.map(JSONValue.string) ?? .null),
                ]))
    }

    /// The patch that takes a client from `old` to `new`: the keyed diff of the two windows'
    /// lists (O(window)), then `more` and `until` when they changed. A diff that would replace
    /// the whole list replaces the whole document instead (so `more` and `until` stay in it).
    package static func patch(from old: JSONWindowView, to new: JSONWindowView) -> JSONPatch {
        let listPatch = JSONPatch(from: old.list, to: new.list)
        if listPatch.operations.contains(where: { $0.path.tokens.isEmpty }) {
            return JSONPatch(operations: [.replace(path: .root, value: new.json)])
        }
        var operations = listPatch.operations
        if new.whole { return JSONPatch(operations: operations) }
        if old.more != new.more { operations.append(.replace(path: JSONPointer(tokens: ["more"]), value: .bool(new.more))) }
        if old.until != new.until {
            operations.append(.replace(path: JSONPointer(tokens: ["until"]), value: new.until.map(JSONValue.string) ?? .null))
        }
        return JSONPatch(operations: operations)
    }
}
