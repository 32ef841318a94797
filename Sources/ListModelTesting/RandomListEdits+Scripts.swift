import ListModel

// Random edit scripts (test utility; see RandomListEdits.swift).

extension RandomListEdits {
    /// `document` after `count` random edits: row inserts, deletes, moves within and across
    /// sections, section inserts, deletes, moves and renames, and edits of cells, styles, links,
    /// headers, footers, flags, columns and the list's own members.
    public mutating func edited(_ document: ListDocument, edits count: Int) -> ListDocument {
        var document = document
        for _ in 0..<count { edit(&document) }
        return document
    }

    /// Applies one random edit (some are no-ops when the document has nothing to edit).
    public mutating func edit(_ document: inout ListDocument) {
        let sectionCount = document.sections.count
        let anySection = sectionCount > 0 ? Int.random(in: 0..<sectionCount, using: &random) : -1
        switch Int.random(in: 0..<20, using: &random) {
        case 0, 1, 2:  // insert a row
            guard anySection >= 0 else { fallthrough }
            let position = Int.random(in: 0...document.sections[anySection].rows.count, using: &random)
            document.sections[anySection].rows.insert(row(columns: document.columns), at: position)
        case 3:  // insert a section with a few new rows
            let position = Int.random(in: 0...sectionCount, using: &random)
            var new = section(rows: Int.random(in: 0...3, using: &random))
            for index in new.rows.indices { new.rows[index] = row(columns: document.columns) }
            document.sections.insert(new, at: position)
        case 4, 5:  // delete a row
            guard let (section, index) = randomRow(in: document) else { return }
            document.sections[section].rows.remove(at: index)
        case 6:  // delete a section
            guard anySection >= 0 else { return }
            document.sections.remove(at: anySection)
        case 7, 8:  // move a row within its section
            guard let (section, index) = randomRow(in: document) else { return }
            let row = document.sections[section].rows.remove(at: index)
            let position = Int.random(in: 0...document.sections[section].rows.count, using: &random)
            document.sections[section].rows.insert(row, at: position)
        case 9, 10:  // move a row to any section
            guard let (section, index) = randomRow(in: document) else { return }
            let row = document.sections[section].rows.remove(at: index)
            let target = Int.random(in: 0..<sectionCount, using: &random)
            let position = Int.random(in: 0...document.sections[target].rows.count, using: &random)
            document.sections[target].rows.insert(row, at: position)
        case 11:  // move a section
            guard anySection >= 0 else { return }
            let section = document.sections.remove(at: anySection)
            document.sections.insert(section, at: Int.random(in: 0..<sectionCount, using: &random))
        case 12:  // rename a section: its rows now belong to a new section
            guard anySection >= 0 else { return }
            document.sections[anySection].key = "s\(freshKey())"
        case 13, 14:  // change, add or remove one cell
            guard let (section, index) = randomRow(in: document) else { return }
            let column = document.columns[Int.random(in: 0..<document.columns.count, using: &random)]
            document.sections[section].rows[index].cells[column.key] = maybe(cell(kind: column.kind))
        case 15:  // change every cell, or the style, or the link of a row
            guard let (section, index) = randomRow(in: document) else { return }
            editRow(&document.sections[section].rows[index], columns: document.columns)
        case 16:  // header, footer or flags of a section
            guard anySection >= 0 else { return }
            editSection(&document.sections[anySection])
        case 17:  // the columns
            editColumns(&document)
        default:  // title, emptyText, state, row heights
            editListMembers(&document)
        }
    }

    private mutating func editRow(_ row: inout Row, columns: [Column]) {
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            for column in columns { row.cells[column.key] = cell(kind: column.kind) }
        case 1:
            row.style = RowStyle.allCases[Int.random(in: 0..<3, using: &random)]
        default:
            row.href = maybe("/items/\(freshKey())")
        }
    }

    private mutating func editSection(_ section: inout Section) {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: section.header = maybe(text())
        case 1: section.footer = maybe(text())
        case 2: section.collapsible.toggle()
        default: section.collapsed.toggle()
        }
    }

    /// Retitles a column, adds one, or removes the last one with its cells.
    private mutating func editColumns(_ document: inout ListDocument) {
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            let index = Int.random(in: 0..<document.columns.count, using: &random)
            document.columns[index].title = text()
        case 1:
            document.columns.append(Column(key: "c\(freshKey())", title: text()))
        default:
            guard document.columns.count > 1 else { return }
            let key = document.columns.removeLast().key
            for section in document.sections.indices {
                for row in document.sections[section].rows.indices {
                    document.sections[section].rows[row].cells[key] = nil
                }
            }
        }
    }

    private mutating func editListMembers(_ document: inout ListDocument) {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: document.title = text()
        case 1: document.emptyText = maybe(text())
        case 2: document.state = maybe(Bool.random(using: &random) ? .loading : .error(message: text()))
        case 3: document.rowHeight = maybe(Double(Int.random(in: 1...100, using: &random)))
        default: document.estimatedRowHeight = maybe(Double(Int.random(in: 1...1000, using: &random)) / 8)
        }
    }

    /// A uniformly chosen row as (section, index), or `nil` when the list has none.
    private mutating func randomRow(in document: ListDocument) -> (Int, Int)? {
        let count = document.rowCount
        guard count > 0 else { return nil }
        var remaining = Int.random(in: 0..<count, using: &random)
        for (index, section) in document.sections.enumerated() {
            if remaining < section.rows.count { return (index, remaining) }
            remaining -= section.rows.count
        }
        return nil
    }
}
