import ListModel

extension HTMLRenderer {
    /// One row as `<tr data-row="key">` (`<tr data-row="key" data-version="V">` with the row's
    /// `version`) with a `<td>` per column (no trailing newline).
    ///
    /// A row with `href` gets class `linked` and its link in a real `<a class="row-link">` around
    /// the content of its first cell without links of its own (CSS stretches it over the row);
    /// `style` becomes class `row-highlight` or `row-muted`. The live view sends exactly this.
    public func row(_ row: Row, in doc: ListDocument, version: Int? = nil) -> [UInt8] {
        var out = HTMLWriter(capacity: 1024)
        out.row(row, columns: ResolvedColumns(doc, renderers: cellRenderers), version: version)
        return out.finish()
    }

    /// A section's header row, or `nil` when it has no header.
    ///
    /// `<tr class="section-header"><th scope="rowgroup" colspan="N">`; a collapsible section's
    /// header text is a `<button class="section-toggle" aria-expanded aria-controls>` naming the
    /// section's `<tbody>` (see `sectionElementID`).
    public func sectionHeaderRow(_ section: Section, in doc: ListDocument) -> [UInt8]? {
        guard section.header != nil else { return nil }
        var out = HTMLWriter(capacity: 128)
        out.sectionHeaderRow(section, columnCount: doc.columns.count)
        return out.finish()
    }

    /// The column headers row that goes inside `<thead>` (the live view's `head`); with `view`,
    /// each header a link sorting list `listID` by its column, as the page's are.
    public func headRow(_ doc: ListDocument, listID: String? = nil, view: ViewControls? = nil) -> [UInt8] {
        var out = HTMLWriter(capacity: 256 + doc.columns.count * (view == nil ? 48 : 160))
        out.headRow(ResolvedColumns(doc, renderers: cellRenderers), view: view.flatMap { view in listID.map { (view, $0) } })
        return out.finish()
    }

    /// The `<tbody class="status">` a list shows in place of its rows, or `nil` (the live view's
    /// `status`; no trailing newline).
    ///
    /// Loading: `<tbody class="status state-loading">` with a spinner and `role="status"` text.
    /// Error: `<tbody class="status state-error">` with the message in `role="alert"`.
    /// No rows, no state and an `emptyText`: `<tbody class="status empty">` with that text.
    public func statusBody(_ doc: ListDocument) -> [UInt8]? {
        var out = HTMLWriter(capacity: 256)
        out.statusBody(doc, columnCount: doc.columns.count)
        guard out.count > 0 else { return nil }
        var bytes = out.finish()
        bytes.removeLast()  // the newline
        return bytes
    }

    /// A section's footer row (`<tr class="section-footer"><td colspan="N">`), or `nil` when it has none.
    public func sectionFooterRow(_ section: Section, in doc: ListDocument) -> [UInt8]? {
        guard section.footer != nil else { return nil }
        var out = HTMLWriter(capacity: 128)
        out.sectionFooterRow(section, columnCount: doc.columns.count)
        return out.finish()
    }
}

extension HTMLWriter {
    mutating func row(_ row: Row, columns: ResolvedColumns, version: Int? = nil) {
        withUnsafePointer(to: row) { self.row($0, columns: columns, version: version) }
    }

    /// `row(_:columns:)` reading the row in place.
    mutating func row(_ row: UnsafePointer<Row>, columns: ResolvedColumns, version: Int? = nil) {
        raw("<tr data-row=\"")
        escape(row.pointee.key)
        if let version {
            raw("\" data-version=\"")
            decimal(version)
        }
        let linked = row.pointee.href.map(HTMLWriter.isSafeURL) ?? false
        switch (row.pointee.style, linked) {
        case (.default, false): raw("\">")
        case (.default, true): raw("\" class=\"linked\">")
        case (.highlight, false): raw("\" class=\"row-highlight\">")
        case (.highlight, true): raw("\" class=\"row-highlight linked\">")
        case (.muted, false): raw("\" class=\"row-muted\">")
        case (.muted, true): raw("\" class=\"row-muted linked\">")
        }
        // Cells are read in place from the row's packed storage; each column finds its cell by
        // its key's bytes (usually at the column's own position).
        columns.columns.withUnsafeBufferPointer { declared in
            row.pointee.cells.withPackedCells { cells in
                for column in 0..<declared.count {
                    let index = cells.index(of: declared[column].packedKey, hint: column)
                    cell(index.map { cells[$0] }, row: row, linked: linked, column: column, of: columns)
                }
            }
        }
        raw("</tr>")
    }

    /// One `<td>`; the one at `columns.rowLinkColumn` of a linked row holds the row's link.
    @inline(__always)
    private mutating func cell(
        _ cell: PackedCell?, row: UnsafePointer<Row>, linked: Bool, column index: Int, of columns: ResolvedColumns
    ) {
        let plan = columns.plans[index]
        switch plan {
        case .plain: raw("<td>")
        case .number: raw("<td class=\"num\">")
        case .custom:
            if let cellClass = columns.customs[index]!.cellClass {
                raw("<td class=\"")
                escape(cellClass)
                raw("\">")
            } else {
                raw("<td>")
            }
        }
        if linked && index == columns.rowLinkColumn {
            raw("<a class=\"row-link\" href=\"")
            escape(row.pointee.href!)
            raw("\">")
            let before = count
            cellContent(cell, plan: plan, column: index, of: columns)
            if count == before { raw("<span class=\"visually-hidden\">Open</span>") }
            raw("</a></td>")
        } else {
            cellContent(cell, plan: plan, column: index, of: columns)
            raw("</td>")
        }
    }

    @inline(__always)
    private mutating func cellContent(
        _ cell: PackedCell?, plan: CellPlan, column index: Int, of columns: ResolvedColumns
    ) {
        if case .custom = plan {
            columns.customs[index]!.render(cell?.value.cellValue, columns.columns[index], &self)
        } else if let cell {
            if let text = cell.text {
                escapeBytes(text)
            } else {
                builtInCell(packed: cell.value)
            }
        }
    }

    mutating func sectionHeaderRow(_ section: Section, columnCount: Int) {
        guard let header = section.header else { return }
        raw("<tr class=\"section-header\"><th scope=\"rowgroup\" colspan=\"")
        decimal(columnCount)
        raw("\">")
        if section.collapsible {
            raw("<button type=\"button\" class=\"section-toggle\" aria-expanded=\"")
            section.collapsed ? raw("false") : raw("true")
            raw("\" aria-controls=\"")
            escape(HTMLRenderer.sectionElementID(section.key))
            raw("\">")
            text(header)
            raw("</button>")
        } else {
            text(header)
        }
        raw("</th></tr>")
    }

    mutating func sectionFooterRow(_ section: Section, columnCount: Int) {
        guard let footer = section.footer else { return }
        raw("<tr class=\"section-footer\"><td colspan=\"")
        decimal(columnCount)
        raw("\">")
        text(footer)
        raw("</td></tr>")
    }
}
