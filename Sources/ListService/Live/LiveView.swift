import HTMLRenderer
import ListModel

/// The `view=html` document of one window at one version (docs/LIVE.md): the rendered rows,
/// shaped as a one-column list (`rows` hold a cell `html`, section headers and footers hold
/// markup) so that the keyed list diff computes its patches.
package struct LiveView: Equatable {
    /// The rendered sections and rows as a list; its title is the caption text.
    package var list: ListDocument
    /// The `<thead>` row markup.
    package var head: String
    /// The status `<tbody>` markup, or nil.
    package var status: String?
    /// Whether rows remain after the window.
    package var more: Bool
    /// The cursor that reopens this window, nil when it reaches the end.
    package var until: String?

    package static let htmlColumn = Column(key: "html")

    /// The view of `window` at `snapshot`. Like the page, a list in a loading or error state
    /// shows its status in place of its sections, and no pagination.
    /// - Parameter rowMarkup: rendered rows from earlier views of this list, reused when unchanged.
    package init(snapshot: ListSnapshot, window: LiveWindow, renderer: HTMLRenderer, rowMarkup: RowMarkupCache? = nil) {
        let document = snapshot.document
        let showsRows = document.state == nil
        let windowDocument = showsRows ? window.document(of: snapshot.list) : ListDocument(title: document.title)
        var sections: [Section] = []
        sections.reserveCapacity(windowDocument.sections.count)
        for (index, section) in windowDocument.sections.enumerated() {
            let complete = section.rows.count == document.sections[index].rows.count
            sections.append(
                Self.renderedSection(
                    section, complete: complete, in: document, version: snapshot.list.version(ofRow:), renderer: renderer,
                    rowMarkup: rowMarkup))
        }
        list = ListDocument(title: HTMLRenderer.asParsed(document.title), columns: [Self.htmlColumn], sections: sections)
        // As the page's: sort links (without a view link's key, which streams share no matter who reads).
        head = Self.text(renderer.headRow(document, listID: snapshot.id, view: ViewControls(query: nil)))
        status = renderer.statusBody(document).map(Self.text)
        more = showsRows && window.rowCount(in: snapshot.list) < snapshot.list.rowCount
        until = window.until
    }

    /// The view document as the client holds it.
    package var json: JSONValue {
        .object(
            JSONObject([
                ("title", .string(list.title)),
                ("head", .string(head)),
                ("sections", .array(list.sections.map { LiveViewPatch.viewSection(fromList: $0.json(columns: list.columns)) })),
                ("status", status.map(JSONValue.string) ?? .null),
                ("more", .bool(more)),
                ("until", until.map(JSONValue.string) ?? .null),
            ]))
    }

    /// The patch that takes a client from `old` to `new`.
    package static func patch(from old: LiveView, to new: LiveView) -> JSONPatch {
        let listPatch = JSONPatch(from: old.list, to: new.list)
        if listPatch.operations.contains(where: { $0.path.tokens.isEmpty }) {
            return JSONPatch(operations: [.replace(path: .root, value: new.json)])
        }
        var operations = LiveViewPatch.translate(listPatch)
        if old.head != new.head { operations.append(.replace(path: JSONPointer(tokens: ["head"]), value: .string(new.head))) }
        if old.status != new.status {
            operations.append(.replace(path: JSONPointer(tokens: ["status"]), value: new.status.map(JSONValue.string) ?? .null))
        }
        if old.more != new.more { operations.append(.replace(path: JSONPointer(tokens: ["more"]), value: .bool(new.more))) }
        if old.until != new.until {
            operations.append(.replace(path: JSONPointer(tokens: ["until"]), value: new.until.map(JSONValue.string) ?? .null))
        }
        return JSONPatch(operations: operations)
    }
}
