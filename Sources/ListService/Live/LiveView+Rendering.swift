import HTMLRenderer
import ListModel

// How every `view=html` document holds a list's rows and sections: list windows, grown windows,
// live views and their incremental patches all make them here.

extension LiveView {
    /// `row` as the view document holds it: its key and its rendered markup (`<tr data-row …
    /// data-version …>`), from `rowMarkup` when given (rendered rows reused while unchanged).
    static func renderedRow(
        _ row: ListModel.Row, version: Int?, in document: ListDocument, renderer: HTMLRenderer, rowMarkup: RowMarkupCache?
    ) -> ListModel.Row {
        let html =
            rowMarkup?.html(for: row, version: version, in: document, renderer: renderer)
            ?? text(renderer.row(row, in: document, version: version))
        return ListModel.Row(key: row.key, cells: ["html": .text(html)])
    }

    /// `section` (holding the window's rows of it) as the view document holds it: its header
    /// markup, its footer's once `complete` (its last row is in), its rendered rows.
    static func renderedSection(
        _ section: ListModel.Section, complete: Bool, in document: ListDocument, version: (String) -> Int?,
        renderer: HTMLRenderer, rowMarkup: RowMarkupCache?
    ) -> ListModel.Section {
        ListModel.Section(
            key: section.key,
            header: renderer.sectionHeaderRow(section, in: document).map(text),
            footer: complete ? renderer.sectionFooterRow(section, in: document).map(text) : nil,
            rows: section.rows.map { row in
                renderedRow(row, version: version(row.key), in: document, renderer: renderer, rowMarkup: rowMarkup)
            })
    }

    /// Rendered bytes as the view document's strings.
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
