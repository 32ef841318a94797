import HTMLRenderer
import ListModel
import ServerSupport

/// One live view of a list (API.md section 9, docs/LIVE.md "Live views"): the view kept up to
/// date from the list's committed changes (`ViewIndex`: each write costs O(log n) per row it
/// touched), and the document of each subscribed window of it at the channel's current
/// version, so that a write diffs each window once and its subscribers share the event.
/// Guarded by its channel's lock.
package struct LiveQueryView {
    package var index: ViewIndex
    /// When a subscriber last opened it (monotonic nanoseconds): the least recently used view
    /// without subscribers makes room for a new one.
    package var lastUsed: UInt64
    /// The document of each subscribed window at the channel's current version.
    package var documents: [Key: ViewDocument] = [:]
    /// The serialized `reset` documents made at the current version, shared by subscribers.
    package var resets: [Key: SharedBytes] = [:]

    /// A window of the view as one kind of stream sees it.
    package struct Key: Hashable {
        package let view: Subscriber.View
        package let end: ViewWindowEnd
    }

    package init(index: ViewIndex, lastUsed: UInt64) {
        self.index = index
        self.lastUsed = lastUsed
    }
}

/// The document of a window of a live view: the list document (`view=json`) or the rendered
/// view document (`view=html`).
package enum ViewDocument: Equatable {
    case json(JSONWindowView)
    case html(LiveView)

    /// The window `key` of the view `index` holds.
    package static func make(
        _ key: LiveQueryView.Key, index: ViewIndex, listID: String, renderer: HTMLRenderer,
        rowMarkup: RowMarkupCache
    ) -> ViewDocument {
        let window = index.window(key.end)
        let document = index.list.document
        let until: String? = if case .through(let cursor) = key.end { cursor.encoded } else { nil }
        let sections = window.sections.map { part in
            var section = document.sections[part.sectionIndex]
            section.rows = ChunkedArray(part.rowKeys.compactMap { index.row(key: $0) })
            return (section, part.complete)
        }
        switch key.view {
        case .json, .jsonWindow:
            var list = document
            list.sections = sections.map(\.0)
            return .json(JSONWindowView(list: list, more: window.more, until: until, whole: key.end == .whole))
        case .html:
            return .html(
                LiveView(
                    view: index, listID: listID, sections: sections, more: window.more, until: until,
                    renderer: renderer, rowMarkup: rowMarkup))
        }
    }

    package var json: JSONValue {
        switch self {
        case .json(let view): return view.json
        case .html(let view): return view.json
        }
    }

    /// The patch that takes a client from `old` to `new` (both of the same kind).
    package static func patch(from old: ViewDocument, to new: ViewDocument) -> JSONPatch {
        switch (old, new) {
        case (.json(let old), .json(let new)): return JSONWindowView.patch(from: old, to: new)
        case (.html(let old), .html(let new)): return LiveView.patch(from: old, to: new)
        default: return JSONPatch(operations: [.replace(path: .root, value: new.json)])
        }
    }

    /// Rows in the window and whether more remain.
    package var rowsAndMore: (rows: Int, more: Bool) {
        switch self {
        case .json(let view): return (view.list.rowCount, view.more)
        case .html(let view): return (view.list.rowCount, view.more)
        }
    }
}

extension LiveView {
    /// The `view=html` document of a window of a live view: as `init(snapshot:window:…)` for a
    /// list window, with the view's sections and rows; a section's footer shows once its last
    /// row of the view is in; with `q` or filters and no match, the status says so.
    init(
        view index: ViewIndex, listID: String, sections windowSections: [(Section, Bool)], more: Bool, until: String?,
        renderer: HTMLRenderer, rowMarkup: RowMarkupCache
    ) {
        let document = index.list.document
        let showsRows = document.state == nil
        var sections: [Section] = []
        if showsRows {
            sections.reserveCapacity(windowSections.count)
            for (section, complete) in windowSections {
                sections.append(
                    Self.renderedSection(
                        section, complete: complete, in: document, version: index.list.version(ofRow:), renderer: renderer,
                        rowMarkup: rowMarkup))
            }
        }
        list = ListDocument(title: HTMLRenderer.asParsed(document.title), columns: [Self.htmlColumn], sections: sections)
        head = Self.text(renderer.headRow(document, listID: listID, view: ViewControls(query: index.query)))
        if showsRows && index.rowCount > 0 {
            status = nil
        } else {
            var statusDocument = ListDocument(title: document.title, columns: document.columns)
            statusDocument.state = document.state
            statusDocument.emptyText =
                document.emptyText
                ?? (index.query.selectsRows ? "No rows match " + index.query.described + "." : nil)
            status = renderer.statusBody(statusDocument).map(Self.text)
        }
        self.more = showsRows && more
        self.until = until
    }

}

extension ListQuery {
    /// The query in words, for a view that finds nothing: `"milk"`, and filters as written.
    package var described: String {
        var parts: [String] = []
        if let search { parts.append("\u{201C}\(search)\u{201D}") }
        for filter in filters {
            parts.append("\(filter.column) \(filter.op.rawValue)" + (filter.value.map { " \($0)" } ?? ""))
        }
        return parts.joined(separator: " and ")
    }
}
