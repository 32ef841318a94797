/// A view kept up to date from writes, for live views: per section, the matching rows ordered
/// by view key (`ViewSectionIndex`), built once from a list and then updated from the rows a
/// write touched in O(log n) each (remove the old key, insert the new one).
public struct ViewIndex: Sendable {
    /// Where a row is in the view: its section's key and its view key.
    struct Place: Sendable, Equatable {
        var section: String
        var key: ViewKey

        static func == (lhs: Place, rhs: Place) -> Bool { utf8Equal(lhs.section, rhs.section) && lhs.key == rhs.key }
    }

    /// The list version the index reflects.
    public private(set) var list: IndexedList
    /// The validated query.
    public let query: ListQuery
    let matcher: RowMatcher
    let sortColumn: Column?
    /// By section key (keys compare by bytes).
    var sections: [ByteKey: ViewSectionIndex]
    /// The number of rows in the view.
    public private(set) var rowCount = 0
    let maxChunk: Int

    /// The view of `list` through `query`.
    ///
    /// - Throws: `ListQueryError` as `ListQuery.validated(for:)` does.
    public init(list: IndexedList, query: ListQuery) throws(ListQueryError) {
        try self.init(list: list, query: query, maxChunk: 512)
    }

    /// `init(list:query:)` with chunks of at most `maxChunk` rows (tests use small ones).
    init(list: IndexedList, query: ListQuery, maxChunk: Int) throws(ListQueryError) {
        self.init(view: try list.view(query), maxChunk: maxChunk)
    }

    /// The index of `view` (built already: a snapshot's cached view).
    public init(view: ListView) {
        self.init(view: view, maxChunk: 512)
    }

    init(view: ListView, maxChunk: Int) {
        let list = view.list
        self.maxChunk = maxChunk
        self.list = list
        self.query = view.query
        matcher = RowMatcher(view.query, columns: list.document.columns)
        sortColumn = view.query.sort.map { sort in list.document.columns.first { utf8Equal($0.key, sort.column) }! }
        let descending = view.query.sort?.descending ?? false
        sections = [:]
        for section in list.document.sections {
            sections[ByteKey(section.key)] = ViewSectionIndex(sortedEntries: [], head: [], descending: descending, maxChunk: maxChunk)
        }
        for (viewSection, keys) in zip(view.sections, view.keys) {
            let section = list.document.sections[viewSection.sectionIndex]
            var entries: [ViewSectionIndex.Entry] = []
            entries.reserveCapacity(keys.count)
            let head = keys.commonTextHead
            for (index, row) in viewSection.rows.enumerated() {
                entries.append(.init(prefix: keys.prefix(at: index, head: head), rowKey: section.rows[row].key))
            }
            sections[ByteKey(section.key)] = ViewSectionIndex(
                sortedEntries: entries, head: head, descending: descending, maxChunk: maxChunk)
            rowCount += entries.count
        }
    }

    /// The view's sections in list order with their row keys in view order; while `q` or a
    /// filter is active, sections without a matching row are left out (as `ListView`).
    public var rowKeysBySection: [(sectionKey: String, rowKeys: [String])] {
        list.document.sections.compactMap { section in
            let rows = sections[ByteKey(section.key)]?.entries.map(\.rowKey) ?? []
            return rows.isEmpty && query.selectsRows ? nil : (section.key, rows)
        }
    }

    /// The section and index in it, in view order, of the row with `key`; `nil` when it is not
    /// in the view.
    public func location(ofRow key: String) -> (sectionKey: String, index: Int)? {
        guard let position = list.position(ofRow: key),
            let place = place(of: list.row(atPosition: position), at: position, in: list),
            let section = sections[ByteKey(place.section)]
        else { return nil }
        return (place.section, section.rank(of: place.key, source(list)))
    }

    /// Brings the index to `newList`, a later version of `list` in which only the rows
    /// `touchedRowKeys` were written, inserted, moved or removed (sections may come and go).
    /// Returns what happened to those rows, to be read per window (`ViewUpdate.window`).
    public mutating func update(to newList: IndexedList, touching touchedRowKeys: some Sequence<String>) -> ViewUpdate {
        let descending = query.sort?.descending ?? false
        for section in newList.document.sections where sections[ByteKey(section.key)] == nil {
            sections[ByteKey(section.key)] = ViewSectionIndex(sortedEntries: [], head: [], descending: descending, maxChunk: maxChunk)
        }
        var changes: [ViewUpdate.Change] = []
        var moved: [ViewUpdate.Change] = []
        for touched in Set(touchedRowKeys.lazy.map { ByteKey($0) }) {
            let rowKey = touched.string
            // The index holds the view of `list`: a row's old place is where `list` puts it.
            let oldPosition = list.position(ofRow: rowKey)
            let newPosition = newList.position(ofRow: rowKey)
            let oldRow = oldPosition.map { list.row(atPosition: $0) }
            let newRow = newPosition.map { newList.row(atPosition: $0) }
            let old = oldRow.flatMap { place(of: $0, at: oldPosition!, in: list) }
            let new = newRow.flatMap { place(of: $0, at: newPosition!, in: newList) }
            let change = ViewUpdate.Change(rowKey: rowKey, old: old, new: new, contentChanged: oldRow != newRow)
            if old != new { moved.append(change) }
            changes.append(change)
        }
        // Entries keep a prefix of their key, the rest read from a list when prefixes tie: every
        // row leaves its old place while the index is `list`'s, then takes its new one in `newList`'s.
        let oldSource = source(list)
        for change in moved {
            guard let old = change.old else { continue }
            if sections[ByteKey(old.section)]?.remove(rowKey: change.rowKey, at: old.key, oldSource) == true { rowCount -= 1 }
        }
        let newSource = source(newList)
        for change in moved {
            guard let new = change.new, sections[ByteKey(new.section)] != nil else { continue }
            sections[ByteKey(new.section)]!.insert(rowKey: change.rowKey, at: new.key, newSource)
            rowCount += 1
        }
        for key in sections.keys where newList.sectionIndexes[key] == nil {
            rowCount -= sections[key]!.count
            sections[key] = nil
        }
        let update = ViewUpdate(
            changes: changes, oldSections: list.sectionIndexes, newSections: newList.sectionIndexes,
            descending: descending)
        list = newList
        return update
    }
}

extension ViewIndex {
    /// The view keys of `list`'s rows (this index's list or a later one).
    func source(_ list: IndexedList) -> ViewKeySource { ViewKeySource(list: list, sortColumn: sortColumn) }

    /// Where `row`, at `position` of `list` (this index's list or a later one), is in the view;
    /// `nil` when it does not match.
    func place(of row: Row, at position: Int, in list: IndexedList) -> Place? {
        guard matcher.keepsAll || matcher.matches(row) else { return nil }
        let sortValue = sortColumn.map { SortValue(row.cells[$0.key]) } ?? .empty
        return Place(
            section: list.sectionKey(atPosition: position), key: ViewKey(sortValue: sortValue, orderKey: list.orderKeys[position]))
    }
}

/// What a write did to the rows it touched, as `ViewIndex.update(to:touching:)` reports it.
public struct ViewUpdate: Sendable {
    struct Change: Sendable {
        var rowKey: String
        var old: ViewIndex.Place?
        var new: ViewIndex.Place?
        var contentChanged: Bool
    }

    let changes: [Change]
    let oldSections: [ByteKey: Int]
    let newSections: [ByteKey: Int]
    let descending: Bool

    /// The touched rows as a window sees them; a window is the view's prefix through `end` (by
    /// view key, so the window is the same before and after the write), or the whole view
    /// when `end` is `nil`.
    public func window(through end: ViewCursor?) -> ViewWindowChanges {
        var result = ViewWindowChanges()
        for change in changes.sorted(by: { $0.rowKey.utf8.lexicographicallyPrecedes($1.rowKey.utf8) }) {
            let wasIn = change.old.map { contains($0, end: end, sections: oldSections, else: newSections) } ?? false
            let isIn = change.new.map { contains($0, end: end, sections: newSections, else: oldSections) } ?? false
            switch (wasIn, isIn) {
            case (false, true): result.entered.append(change.rowKey)
            case (true, false): result.left.append(change.rowKey)
            case (true, true):
                if change.old != change.new {
                    result.moved.append(change.rowKey)
                } else if change.contentChanged {
                    result.changed.append(change.rowKey)
                }
            case (false, false): break
            }
        }
        return result
    }

    /// Whether a row at `place` is in the window through `end`, with sections placed by
    /// `sections` (the end's by `fallback` when its section is not there).
    private func contains(
        _ place: ViewIndex.Place, end: ViewCursor?, sections: [ByteKey: Int],
        else fallback: [ByteKey: Int]
    ) -> Bool {
        guard let end else { return true }
        guard let section = sections[ByteKey(place.section)],
            let endSection = sections[ByteKey(end.sectionKey)] ?? fallback[ByteKey(end.sectionKey)]
        else { return false }
        if section != endSection { return section < endSection }
        return !end.isBefore(place.key, descending: descending)
    }
}

/// The touched rows of a write, for one window: row keys, each sorted by their bytes.
public struct ViewWindowChanges: Sendable, Equatable {
    /// Rows now in the window that were not (new rows, rows that started to match or moved in).
    public var entered: [String] = []
    /// Rows that were in the window and are not any more (removed, stopped matching, moved out).
    public var left: [String] = []
    /// Rows in the window before and after whose view key (section or sort value) changed.
    public var moved: [String] = []
    /// Rows in the window before and after at the same place whose content changed.
    public var changed: [String] = []

    public init() {}
}
