import HTMLRenderer
import ListModel

extension ViewDocument {
    /// The sections and rows the document holds (rendered ones for `view=html`).
    var list: ListDocument {
        get {
            switch self {
            case .json(let view): return view.list
            case .html(let view): return view.list
            }
        }
        set {
            switch self {
            case .json(var view):
                view.list = newValue
                self = .json(view)
            case .html(var view):
                view.list = newValue
                self = .html(view)
            }
        }
    }

    var more: Bool {
        get {
            switch self {
            case .json(let view): return view.more
            case .html(let view): return view.more
            }
        }
        set {
            switch self {
            case .json(var view):
                view.more = newValue
                self = .json(view)
            case .html(var view):
                view.more = newValue
                self = .html(view)
            }
        }
    }

    /// The window `key` after a write that changed rows only (no section, column or list member),
    /// made from `before` and the rows the write touched instead of from the whole window:
    /// O(sections + touched rows × log n). Rows that left the window, or moved in it, are
    /// removed (last first), rows that entered or moved are added at their new places (first
    /// first), rows changed in place are replaced; then the footers that show or hide (`view=html`),
    /// and `more`. Nil when the window's sections change (a section gains its first
    /// or loses its last match, …), when the view becomes empty or stops being so (the status
    /// changes), or when anything does not add up: the caller then diffs whole windows.
    /// - Parameters:
    ///   - update: what `index.update(to:touching:)` reported for the write.
    ///   - oldPlaces: the view section and index of each touched row before the write.
    ///   - oldRowCount: the view's row count before the write.
    static func incremental(
        from before: ViewDocument, key: LiveQueryView.Key, update: ViewUpdate,
        oldPlaces: [ByteKey: (sectionKey: String, index: Int)], oldRowCount: Int, index: ViewIndex,
        renderer: HTMLRenderer, rowMarkup: RowMarkupCache
    ) -> (ViewDocument, JSONPatch)? {
        guard (oldRowCount > 0) == (index.rowCount > 0) else { return nil }
        let document = index.list.document
        let html = key.view == .html
        if html && document.state != nil { return nil }
        let changes: ViewWindowChanges
        switch key.end {
        case .whole: changes = update.window(through: nil)
        case .empty: changes = ViewWindowChanges()
        case .through(let cursor):
            // A cursor whose section is gone is placed by order key: the full path knows how.
            guard document.sections.contains(where: { utf8Equal($0.key, cursor.sectionKey) }) else { return nil }
            changes = update.window(through: cursor)
        }
        let shape = index.windowShape(key.end)
        var after = before
        var list = after.list
        guard shape.sections.count == list.sections.count,
            zip(shape.sections, list.sections).allSatisfy({ utf8Equal(document.sections[$0.sectionIndex].key, $1.key) })
        else { return nil }
        let position = Dictionary(list.sections.enumerated().map { (ByteKey($1.key), $0) }, uniquingKeysWith: { first, _ in first })
        var operations: [JSONPatchOperation] = []

        func rowPath(_ section: Int, _ row: Int) -> JSONPointer {
            JSONPointer(tokens: ["sections", String(section), "rows", String(row)])
        }
        /// The row as the document holds it, and as a patch carries it.
        func entry(_ row: Row) -> (Row, JSONValue) {
            guard html else { return (row, row.json(columns: document.columns)) }
            let rendered = LiveView.renderedRow(
                row, version: index.list.version(ofRow: row.key), in: document, renderer: renderer, rowMarkup: rowMarkup)
            return (rendered, LiveViewPatch.viewRow(fromList: rendered.json(columns: [LiveView.htmlColumn])))
        }

        var removals: [(section: Int, row: Int)] = []
        for rowKey in changes.left + changes.moved {
            guard let place = oldPlaces[ByteKey(rowKey)], let section = position[ByteKey(place.sectionKey)],
                place.index < list.sections[section].rows.count,
                utf8Equal(list.sections[section].rows[place.index].key, rowKey)
            else { return nil }
            removals.append((section, place.index))
        }
        for (section, row) in removals.sorted(by: { ($0.section, $0.row) > ($1.section, $1.row) }) {
            list.sections[section].rows.remove(at: row)
            operations.append(.remove(path: rowPath(section, row)))
        }
        var additions: [(section: Int, row: Int, key: String)] = []
        for rowKey in changes.entered + changes.moved {
            guard let place = index.location(ofRow: rowKey), let section = position[ByteKey(place.sectionKey)] else { return nil }
            additions.append((section, place.index, rowKey))
        }
        for addition in additions.sorted(by: { ($0.section, $0.row) < ($1.section, $1.row) }) {
            guard addition.row <= list.sections[addition.section].rows.count, let row = index.row(key: addition.key) else { return nil }
            let (stored, value) = entry(row)
            list.sections[addition.section].rows.insert(stored, at: addition.row)
            operations.append(.add(path: rowPath(addition.section, addition.row), value: value))
        }
        for rowKey in changes.changed {
            guard let place = index.location(ofRow: rowKey), let section = position[ByteKey(place.sectionKey)],
                place.index < list.sections[section].rows.count,
                utf8Equal(list.sections[section].rows[place.index].key, rowKey), let row = index.row(key: rowKey)
            else { return nil }
            let (stored, value) = entry(row)
            list.sections[section].rows[place.index] = stored
            operations.append(.replace(path: rowPath(section, place.index), value: value))
        }
        // What the window holds must be what the view says it holds.
        for (section, part) in zip(list.sections, shape.sections) where section.rows.count != part.rowsInWindow { return nil }
        if html {
            // A footer shows once the section's last row of the view is in the window: rows
            // added or removed after the window change that too.
            for (section, part) in shape.sections.enumerated() {
                let complete = part.rowsInWindow == part.rowsInView
                if complete && list.sections[section].footer != nil { continue }  // sections are as they were
                let footer =
                    complete
                    ? renderer.sectionFooterRow(document.sections[part.sectionIndex], in: document).map {
                        String(decoding: $0, as: UTF8.self)
                    }
                    : nil
                if list.sections[section].footer != footer {
                    list.sections[section].footer = footer
                    operations.append(
                        .replace(
                            path: JSONPointer(tokens: ["sections", String(section), "footer"]),
                            value: footer.map(JSONValue.string) ?? .null))
                }
            }
        }
        after.list = list
        if key.end != .whole && after.more != shape.more {
            after.more = shape.more
            operations.append(.replace(path: JSONPointer(tokens: ["more"]), value: .bool(shape.more)))
        }
        return (after, JSONPatch(operations: operations))
    }
}

extension JSONPatchOperation {
    /// Whether the operation changes rows only: its paths are under `/sections/{i}/rows/{j}`.
    var touchesRowsOnly: Bool {
        func rowPath(_ path: JSONPointer) -> Bool {
            let tokens = path.tokens
            return tokens.count >= 4 && tokens[0] == "sections" && tokens[2] == "rows"
        }
        switch self {
        case .add(let path, _), .replace(let path, _), .test(let path, _): return rowPath(path)
        case .remove(let path): return rowPath(path)
        case .move(let from, let path), .copy(let from, let path): return rowPath(from) && rowPath(path)
        }
    }
}
