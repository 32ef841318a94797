import ListModel

extension HTMLRenderer {
    /// The whole list as one `<table class="list">`, with no pagination row.
    ///
    /// A list in the loading or error state shows that state in place of its rows; a list with no
    /// rows shows its `emptyText` (when set) after its sections.
    public func table(_ doc: ListDocument) -> [UInt8] {
        let parts = doc.sections.indices.map { ListPage.Part(sectionIndex: $0, rows: 0..<doc.sections[$0].rows.count) }
        let columns = ResolvedColumns(doc, renderers: cellRenderers)
        return HTMLWriter.render(capacity: HTMLWriter.estimatedSize(doc, parts: parts, columns: columns)) { out in
            out.table(doc, parts: parts, attributes: nil, nextHref: nil, columns: columns)
        }
    }
}

/// Each row's version by row key (`IndexedList.version(ofRow:)`), for `data-version` on rows.
public typealias RowVersions = (String) -> Int?

/// What the page adds to the `<table>` element.
struct TableAttributes {
    var listID: String
    var version: Int
    var cursor: String?
}

extension HTMLWriter {
    /// The `<table>`; with `headingCaption` its caption holds the page's `<h1>` (a page's table is
    /// its main content; a table embedded elsewhere keeps a plain caption).
    mutating func table(
        _ doc: ListDocument, parts: [ListPage.Part], attributes: TableAttributes?, nextHref: String?,
        columns: ResolvedColumns, headingCaption: Bool = false, view: ViewControls? = nil, rowVersions: RowVersions? = nil
    ) {
        raw("<table class=\"list")
        if doc.rowHeight != nil { raw(" fixed-rows") }
        if doc.estimatedRowHeight != nil { raw(" lazy-rows") }
        raw("\"")
        if let attributes {
            attribute("data-list", attributes.listID)
            raw(" data-version=\"")
            decimal(attributes.version)
            raw("\"")
            if let cursor = attributes.cursor { attribute("data-cursor", cursor) }
        }
        if let rowHeight = doc.rowHeight { pixelAttribute("data-row-height", rowHeight) }
        if let estimated = doc.estimatedRowHeight { pixelAttribute("data-estimated-row-height", estimated) }
        if doc.state == .loading { raw(" aria-busy=\"true\"") }
        raw(headingCaption ? ">\n<caption><h1>" : ">\n<caption>")
        text(doc.title)
        raw(headingCaption ? "</h1></caption>\n<thead>" : "</caption>\n<thead>")
        headRow(columns, view: view.flatMap { view in attributes.map { (view, $0.listID) } })
        raw("</thead>\n")
        if doc.state == nil {
            sectionBodies(doc, parts: parts, columns: columns, rowVersions: rowVersions)
        }
        statusBody(doc, columnCount: columns.count)
        if doc.state == nil, let nextHref { paginationBody(nextHref: nextHref, columnCount: columns.count) }
        raw("</table>\n")
    }

    /// The column headers: `<tr><th scope="col">…</tr>`; with `view`, each a link sorting by its column.
    mutating func headRow(_ columns: ResolvedColumns, view: (controls: ViewControls, listID: String)? = nil) {
        raw("<tr>")
        for index in columns.columns.indices {
            if let view {
                let column = columns.columns[index]
                sortableHeader(
                    column, title: column.title.isEmpty ? column.key : column.title, cellClass: columns.cellClass(index),
                    controls: view.controls,
                    listID: view.listID)
                continue
            }
            if let cellClass = columns.cellClass(index) {
                raw("<th scope=\"col\" class=\"")
                escape(cellClass)
                raw("\">")
            } else {
                raw("<th scope=\"col\">")
            }
            text(columns.columns[index].title)
            raw("</th>")
        }
        raw("</tr>")
    }

    /// The `<tbody class="status …">` shown in place of rows, if the list has one (see
    /// `HTMLRenderer.statusBody`); with a trailing newline.
    mutating func statusBody(_ doc: ListDocument, columnCount: Int) {
        switch doc.state {
        case .loading:
            stateBody(class: "status state-loading", columnCount: columnCount) {
                $0.raw("<span class=\"spinner\" aria-hidden=\"true\"></span><span role=\"status\">Loading…</span>")
            }
        case .error(let message):
            stateBody(class: "status state-error", columnCount: columnCount) {
                $0.raw("<div role=\"alert\">")
                $0.text(message)
                $0.raw("</div>")
            }
        case nil:
            if let emptyText = doc.emptyText, doc.rowCount == 0 {
                stateBody(class: "status empty", columnCount: columnCount) { $0.text(emptyText) }
            }
        }
    }

    /// One `<tbody data-section>` per part: a header unless the part continues its section, the
    /// part's rows, and the footer once the section's last row is in.
    /// - Parameter rowVersions: each row's version by key, written as `data-version`; nil: none.
    mutating func sectionBodies(
        _ doc: ListDocument, parts: [ListPage.Part], columns: ResolvedColumns,
        rowVersions: RowVersions? = nil
    ) {
        for part in parts {
            let section = doc.sections[part.sectionIndex]
            let continued = part.continuesSection
            raw("<tbody data-section=\"")
            escape(section.key)
            raw("\"")
            if section.collapsible {
                if !continued {
                    raw(" id=\"")
                    escape(HTMLRenderer.sectionElementID(section.key))
                    raw("\"")
                }
                switch (section.collapsed, continued) {
                case (false, false): raw(" class=\"collapsible\">\n")
                case (true, false): raw(" class=\"collapsible collapsed\">\n")
                case (false, true): raw(" class=\"collapsible continued\">\n")
                case (true, true): raw(" class=\"collapsible collapsed continued\">\n")
                }
            } else {
                continued ? raw(" class=\"continued\">\n") : raw(">\n")
            }
            if !continued, section.header != nil {
                sectionHeaderRow(section, columnCount: columns.count)
                byte(0x0A)
            }
            let rows = section.rows
            // A pointer per row: passing `rows[index]` copied the row (a retain and a release).
            rows.forEachUnsafeElement(in: part.rows) { pointer in
                row(pointer, columns: columns, version: rowVersions?(pointer.pointee.key))
                byte(0x0A)
            }
            if part.rows.upperBound == rows.count, section.footer != nil {
                sectionFooterRow(section, columnCount: columns.count)
                byte(0x0A)
            }
            raw("</tbody>\n")
        }
    }

    /// `<tbody class="pagination">` with the `rel="next"` link.
    mutating func paginationBody(nextHref: String, columnCount: Int) {
        stateBody(class: "pagination", columnCount: columnCount) {
            $0.raw("<a rel=\"next\" href=\"")
            $0.escape(nextHref)
            $0.raw("\">Load more</a>")
        }
    }

    /// A `<tbody class="…">` holding one row with one cell spanning all columns.
    mutating func stateBody(class className: StaticString, columnCount: Int, content: (inout HTMLWriter) -> Void) {
        raw("<tbody class=\"")
        raw(className)
        raw("\"><tr><td colspan=\"")
        decimal(columnCount)
        raw("\">")
        content(&self)
        raw("</td></tr></tbody>\n")
    }

    /// ` name="N"` for a CSS pixel length: an integer when integral, else Swift's shortest form.
    mutating func pixelAttribute(_ name: StaticString, _ value: Double) {
        guard value.isFinite else { return }
        byte(0x20)
        raw(name)
        raw("=\"")
        if value.rounded() == value, value.magnitude < 1e15 {
            decimal(Int(value))
        } else {
            unsafeRaw(value.description)
        }
        raw("\"")
    }
}
