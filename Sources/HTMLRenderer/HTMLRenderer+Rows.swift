import ListModel

extension HTMLRenderer {
    /// One row as `<tr data-row="key">` with a `<td>` per column (no trailing newline).
    ///
    /// A row with `href` gets class `linked` and its link in a real `<a class="row-link">` around
    /// the content of its first cell without links of its own (CSS stretches it over the row);
    /// `style` becomes class `row-highlight` or `row-muted`. The live view sends exactly this.
    public func row(_ row: Row, in doc: ListDocument) -> [UInt8] {
        var out = HTMLWriter(capacity: 256)
        out.row(row, columns: ResolvedColumns(doc, renderers: cellRenderers))
        return out.bytes
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
        return out.bytes
    }

    /// A section's footer row (`<tr class="section-footer"><td colspan="N">`), or `nil` when it has none.
    public func sectionFooterRow(_ section: Section, in doc: ListDocument) -> [UInt8]? {
        guard section.footer != nil else { return nil }
        var out = HTMLWriter(capacity: 128)
        out.sectionFooterRow(section, columnCount: doc.columns.count)
        return out.bytes
    }
}

extension HTMLWriter {
    mutating func row(_ row: Row, columns: ResolvedColumns) {
        raw("<tr data-row=\"")
        escape(row.key)
        let linked = row.href.map(HTMLWriter.isSafeURL) ?? false
        switch (row.style, linked) {
        case (.default, false): raw("\">")
        case (.default, true): raw("\" class=\"linked\">")
        case (.highlight, false): raw("\" class=\"row-highlight\">")
        case (.highlight, true): raw("\" class=\"row-highlight linked\">")
        case (.muted, false): raw("\" class=\"row-muted\">")
        case (.muted, true): raw("\" class=\"row-muted linked\">")
        }
        let cells = row.cells
        for index in columns.columns.indices {
            let resolved = columns.columns[index]
            let value = cells.isEmpty ? nil : cells[resolved.column.key]
            if let custom = resolved.custom {
                if let cellClass = custom.cellClass {
                    raw("<td class=\"")
                    escape(cellClass)
                    raw("\">")
                } else {
                    raw("<td>")
                }
            } else if resolved.column.kind == .number {
                raw("<td class=\"num\">")
            } else {
                raw("<td>")
            }
            let hostsRowLink = linked && index == columns.rowLinkColumn
            if hostsRowLink {
                raw("<a class=\"row-link\" href=\"")
                escape(row.href!)
                raw("\">")
            }
            let before = bytes.count
            if let custom = resolved.custom {
                custom.render(value, resolved.column, &self)
            } else {
                builtInCell(value)
            }
            if hostsRowLink {
                if bytes.count == before { raw("<span class=\"visually-hidden\">Open</span>") }
                raw("</a>")
            }
            raw("</td>")
        }
        raw("</tr>")
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
