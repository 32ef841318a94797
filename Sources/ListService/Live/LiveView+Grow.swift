import HTMLRenderer
import ListModel

extension LiveView {
    /// The view of `window` grown to `grown` at the same snapshot, and the patch between them,
    /// built from the rows that join only: O(added rows), where a full view and diff would be
    /// O(window). Nil when the list shows a state instead of rows (use the full path then).
    package static func growing(
        _ before: LiveView, from window: LiveWindow, to grown: LiveWindow, snapshot: ListSnapshot,
        renderer: HTMLRenderer, rowMarkup: RowMarkupCache
    ) -> (view: LiveView, patch: JSONPatch)? {
        let document = snapshot.document
        guard document.state == nil else { return nil }
        let list = snapshot.list
        let start = window.rowCount(in: list)
        let added = grown.rowCount(in: list) - start
        guard added > 0 else { return nil }
        let afterCursor: Cursor?
        switch window {
        case .empty: afterCursor = nil
        case .through(let cursor): afterCursor = cursor
        }
        let page = list.page(after: afterCursor, limit: added)
        var view = before
        var operations: [JSONPatchOperation] = []
        for part in page.parts {
            let section = document.sections[part.sectionIndex]
            let complete = part.rows.upperBound == section.rows.count
            let rows = part.rows.map { index in
                let row = section.rows[index]
                return Self.renderedRow(row, version: list.version(ofRow: row.key), in: document, renderer: renderer, rowMarkup: rowMarkup)
            }
            let footer = complete ? renderer.sectionFooterRow(section, in: document).map(Self.text) : nil
            // The view's sections are the document's first ones, by index.
            let last = view.list.sections.count - 1
            if part.sectionIndex < last {
                guard part.rows.isEmpty else { return nil }  // cannot happen; the full path decides
                continue
            }
            if part.sectionIndex == last {
                // The window's last section continues.
                for row in rows {
                    operations.append(
                        .add(
                            path: JSONPointer(tokens: ["sections", String(last), "rows", String(view.list.sections[last].rows.count)]),
                            value: LiveViewPatch.viewRow(fromList: row.json(columns: [htmlColumn]))))
                    view.list.sections[last].rows.append(row)
                }
                if view.list.sections[last].footer != footer {
                    view.list.sections[last].footer = footer
                    operations.append(
                        .replace(
                            path: JSONPointer(tokens: ["sections", String(last), "footer"]), value: footer.map(JSONValue.string) ?? .null))
                }
            } else {
                guard part.sectionIndex == view.list.sections.count else { return nil }
                let added = Section(
                    key: section.key, header: renderer.sectionHeaderRow(section, in: document).map(Self.text),
                    footer: footer, rows: rows)
                operations.append(
                    .add(
                        path: JSONPointer(tokens: ["sections", String(view.list.sections.count)]),
                        value: LiveViewPatch.viewSection(fromList: added.json(columns: [htmlColumn]))))
                view.list.sections.append(added)
            }
        }
        let more = grown.rowCount(in: list) < list.rowCount
        if view.more != more {
            view.more = more
            operations.append(.replace(path: JSONPointer(tokens: ["more"]), value: .bool(more)))
        }
        if view.until != grown.until {
            view.until = grown.until
            operations.append(.replace(path: JSONPointer(tokens: ["until"]), value: grown.until.map(JSONValue.string) ?? .null))
        }
        return (view, JSONPatch(operations: operations))
    }
}
