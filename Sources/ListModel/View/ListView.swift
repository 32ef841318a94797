/// A list seen through a query (API.md section 9): the list's sections in list order, each with
/// its matching rows in view order; with `q` or a filter, sections without a matching row are
/// left out.
///
/// Built once from an `IndexedList` (`IndexedList.view(_:)`, O(n log n)); each row's sort value
/// is computed once. Rows are named by their index in their section of `list.document`.
public struct ListView: Sendable {
    /// A section of the view.
    public struct Section: Sendable, Equatable {
        /// Index into `list.document.sections`.
        public var sectionIndex: Int
        /// Indexes into that section's `rows`, in view order.
        public var rows: [Int]
    }

    /// The list the view was built from.
    public let list: IndexedList
    /// The validated query (number values in canonical form).
    public let query: ListQuery
    /// The view's sections, in list order.
    public let sections: [Section]
    /// The view key of each row of each section, parallel to `sections[i].rows`.
    let keys: [ViewKeys]
    /// The view position of each section's first row, then the row count.
    let starts: [Int]

    /// The number of rows in the view.
    public var rowCount: Int { starts.last ?? 0 }

    /// The query's fingerprint: what the view's cursors carry.
    public var fingerprint: UInt64 { query.fingerprint }

    init(list: IndexedList, query: ListQuery) {
        let reading = ViewReading(query, columns: list.document.columns)
        var sections: [Section] = []
        var keys: [ViewKeys] = []
        var orderKeys = list.orderKeys.makeIterator()
        var scratch: [UInt8] = []
        for (sectionIndex, section) in list.document.sections.enumerated() {
            var (rows, sectionKeys) = reading.matchingRows(of: section, orderKeys: &orderKeys, scratch: &scratch)
            if rows.isEmpty && !reading.matcher.keepsAll { continue }
            if reading.sorts {
                let order = ViewOrder.positions(of: sectionKeys, descending: reading.descending)
                rows = order.map { rows[$0] }
                sectionKeys = sectionKeys.permuted(by: order)
            }
            sections.append(Section(sectionIndex: sectionIndex, rows: rows))
            keys.append(sectionKeys)
        }
        self.init(list: list, query: query, sections: sections, keys: keys)
    }

    /// A view of `list` made of `sections` with their keys (also `IndexedList.viewHead`: a
    /// view's first rows).
    init(list: IndexedList, query: ListQuery, sections: [Section], keys: [ViewKeys]) {
        self.list = list
        self.query = query
        self.sections = sections
        self.keys = keys
        var starts = [0]
        for section in sections { starts.append(starts.last! + section.rows.count) }
        self.starts = starts
    }

    /// The view as a document: the list's title, columns and settings, the view's sections
    /// with their rows in view order.
    public var document: ListDocument {
        var document = list.document
        document.sections = sections.map { section in
            var copy = list.document.sections[section.sectionIndex]
            let rows = copy.rows
            copy.rows = ChunkedArray(section.rows.map { rows[$0] })
            return copy
        }
        return document
    }

    /// The rows of the view in order, each with the index of its section in `list.document`.
    public var rows: [(sectionIndex: Int, row: Row)] {
        sections.flatMap { section in
            section.rows.map { (section.sectionIndex, list.document.sections[section.sectionIndex].rows[$0]) }
        }
    }
}

extension IndexedList {
    /// The list seen through `query`, checked against the list's columns.
    ///
    /// - Throws: `ListQueryError` as `ListQuery.validated(for:)` does.
    public func view(_ query: ListQuery) throws(ListQueryError) -> ListView {
        ListView(list: self, query: try query.validated(for: document.columns))
    }
}

extension ListDocument {
    /// The document seen through `query` (its rows' order keys spaced afresh: cursors of this
    /// view do not carry over to other versions; use `IndexedList.view(_:)` for paging).
    ///
    /// - Throws: `ListQueryError` as `ListQuery.validated(for:)` does.
    public func view(_ query: ListQuery) throws(ListQueryError) -> ListView {
        try IndexedList(document: self).view(query)
    }
}
