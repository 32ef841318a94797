import ListModel

extension ListChange {
    /// The rows this change touched (`touchedRowKeys`) when a view at `old` can be brought to
    /// `new` from them alone: the change names them, starts at or before `old` (a merged change
    /// may start earlier: touching more rows than needed is harmless) and keeps the columns.
    /// Nil otherwise: such a view is made again.
    package func rowsToFollow(from old: ListSnapshot, to new: ListSnapshot) -> [String]? {
        guard let touched = touchedRowKeys, let start = self.old, start.version <= old.version,
            old.document.columns == new.document.columns
        else { return nil }
        return touched
    }

    /// The keys of the rows a patch adds, removes, moves or changes, read by walking its
    /// operations over the row keys of the sections they name (copied only for those sections);
    /// nil when an operation reaches beyond rows (a section, a column, a list member) or does not
    /// fit the document. With the order keys a change log entry gives (rows that are new, moved
    /// or renumbered), it names every row whose place in a view may have changed.
    package static func touchedRows(of patch: JSONPatch, in document: ListDocument) -> [String]? {
        var keys: [Int: [String]] = [:]
        var touched: Set<ByteKey> = []

        func rowPlace(_ path: JSONPointer, adding: Bool) -> (section: Int, row: Int)? {
            let tokens = path.tokens
            guard tokens.count >= 4, tokens[0] == "sections", tokens[2] == "rows",
                let section = Int(tokens[1]), section >= 0, section < document.sections.count
            else { return nil }
            if keys[section] == nil { keys[section] = document.sections[section].rows.map(\.key) }
            let count = keys[section]!.count
            if adding && tokens.count == 4 && tokens[3] == "-" { return (section, count) }
            guard let row = Int(tokens[3]), row >= 0, row < count + (adding && tokens.count == 4 ? 1 : 0) else { return nil }
            return (section, row)
        }

        for operation in patch.operations {
            switch operation {
            case .test:
                continue
            case .add(let path, let value), .replace(let path, let value):
                let isAdd = if case .add = operation { true } else { false }
                guard let place = rowPlace(path, adding: isAdd) else { return nil }
                let tokens = path.tokens
                if tokens.count == 4 {
                    guard let key = value.objectValue?["key"]?.stringValue else { return nil }
                    if isAdd {
                        keys[place.section]!.insert(key, at: place.row)
                    } else {
                        touched.insert(ByteKey(keys[place.section]![place.row]))
                        keys[place.section]![place.row] = key
                    }
                    touched.insert(ByteKey(key))
                } else if tokens.count == 5 && tokens[4] == "key" {
                    guard let key = value.stringValue else { return nil }
                    touched.insert(ByteKey(keys[place.section]![place.row]))
                    keys[place.section]![place.row] = key
                    touched.insert(ByteKey(key))
                } else {
                    touched.insert(ByteKey(keys[place.section]![place.row]))
                }
            case .remove(let path):
                guard let place = rowPlace(path, adding: false) else { return nil }
                if path.tokens.count == 4 {
                    touched.insert(ByteKey(keys[place.section]!.remove(at: place.row)))
                } else {
                    touched.insert(ByteKey(keys[place.section]![place.row]))
                }
            case .move(let from, let path):
                guard from.tokens.count == 4, path.tokens.count == 4, let source = rowPlace(from, adding: false) else { return nil }
                let key = keys[source.section]!.remove(at: source.row)
                guard let target = rowPlace(path, adding: true) else { return nil }
                keys[target.section]!.insert(key, at: target.row)
                touched.insert(ByteKey(key))
            case .copy:
                return nil
            }
        }
        return touched.map(\.string)
    }
}
