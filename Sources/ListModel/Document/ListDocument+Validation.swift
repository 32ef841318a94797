// `ListDocument(json:)`: validation and canonicalisation per docs/DOCUMENT.md.

extension ListDocument {
    /// How large a document may be; the server may raise or lower these.
    public struct Limits: Sendable, Equatable {
        /// Rows in all sections together.
        public var maxRows: Int
        public var maxSections: Int
        public var maxColumns: Int

        public init(maxRows: Int = 1_000_000, maxSections: Int = 10_000, maxColumns: Int = 64) {
            self.maxRows = maxRows
            self.maxSections = maxSections
            self.maxColumns = maxColumns
        }
    }

    /// The longest key (column, section, row) in UTF-8 bytes.
    public static let maxKeyBytes = 256
    /// The longest title, header, footer, text cell or message in UTF-8 bytes.
    public static let maxStringBytes = 65_536
    /// The longest `href` or `src` in UTF-8 bytes.
    public static let maxURLBytes = 8_192
    /// The allowed `rowHeight` and `estimatedRowHeight`, in CSS pixels.
    public static let rowHeightRange: ClosedRange<Double> = 1...10_000

    /// Validates `json` as a list document and canonicalises it (docs/DOCUMENT.md).
    ///
    /// Defaults are filled in, `null` cells dropped, cells put in column order; unknown
    /// members, duplicate keys, values that do not fit their column and disallowed URLs
    /// are rejected with the pointer of the first offending member.
    public init(json: JSONValue, limits: Limits = Limits()) throws(ListDocumentError) {
        var reader = DocumentReader(limits: limits)
        self = try reader.document(json)
    }

    /// This document after the checks of `init(json:)`; use it on documents built in Swift.
    public func validated(limits: Limits = Limits()) throws(ListDocumentError) -> ListDocument {
        try ListDocument(json: json, limits: limits)
    }
}

/// Reads one document; remembers the keys seen so far to report duplicates.
struct DocumentReader {
    typealias Failure = ListDocumentError
    let limits: ListDocument.Limits
    var columnIndex: [String: Int] = [:]
    var columns: [Column] = [] {
        didSet {
            columnKeys = columns.map(\.key)
            columnKinds = columns.map(\.kind)
        }
    }
    /// The columns' keys and kinds, read per cell without copying a `Column`.
    private(set) var columnKeys: [String] = []
    private(set) var columnKinds: [ColumnKind] = []
    var rowPlaces = RowKeyTable()
    /// Row keys read but not yet checked (`checkRowKeyLater`).
    var pendingRowKeys: [RowKeyTable.Pending] = []
    /// The first repeated row key found among them.
    var repeatedRowKey: ListDocumentError?
    var rowCount = 0
    /// Buffers reused from row to row while cells are read.
    let scratch = CellScratch()

    init(limits: ListDocument.Limits) { self.limits = limits }

    mutating func document(_ value: JSONValue) throws(Failure) -> ListDocument {
        guard case .object(let object) = value else {
            throw Failure(pointer: .root, message: "a list document must be an object, got \(value.typeName)")
        }
        var (doc, sectionsValue) = try header(object)
        if let sectionsValue {
            doc.sections = try within("sections") { () throws(Failure) in try readSections(sectionsValue) }
        }
        return doc
    }

    /// The document's members other than the sections, checked in the order `document(_:)`
    /// checks them (the members in their order, then the title's presence, then the columns),
    /// and the `sections` member, unchecked. Sets the columns the rows are read against.
    mutating func header(_ object: JSONObject) throws(Failure) -> (document: ListDocument, sections: JSONValue?) {
        var title: String?
        var columnsValue: JSONValue?
        var sectionsValue: JSONValue?
        var doc = ListDocument(title: "")
        for (name, member) in object {
            switch name {
            case "title": title = try within(name) { () throws(Failure) in try text(member) }
            case "columns": columnsValue = member
            case "sections": sectionsValue = member
            case "emptyText":
                if !member.isNull { doc.emptyText = try within(name) { () throws(Failure) in try text(member) } }
            case "state":
                if !member.isNull { doc.state = try within(name) { () throws(Failure) in try state(member) } }
            case "rowHeight":
                if !member.isNull { doc.rowHeight = try within(name) { () throws(Failure) in try rowHeight(member) } }
            case "estimatedRowHeight":
                if !member.isNull {
                    doc.estimatedRowHeight = try within(name) { () throws(Failure) in try rowHeight(member) }
                }
            default:
                throw unknownMember(name, of: "a list document",
                                    allowed: "title, columns, sections, emptyText, state, rowHeight, estimatedRowHeight")
            }
        }
        guard let title else { throw missing("title", of: "a list document") }
        doc.title = title
        if let columnsValue {
            doc.columns = try within("columns") { () throws(Failure) in try readColumns(columnsValue) }
        }
        columns = doc.columns
        for (index, column) in columns.enumerated() { columnIndex[column.key] = index }
        return (doc, sectionsValue)
    }

    // MARK: Columns

    func readColumns(_ value: JSONValue) throws(Failure) -> [Column] {
        guard case .array(let elements) = value else { throw typeMismatch("an array of columns", value) }
        guard !elements.isEmpty else { throw Failure(pointer: .root, message: "must hold at least one column") }
        guard elements.count <= limits.maxColumns else {
            throw Failure(pointer: .root, message: "must hold at most \(limits.maxColumns) columns, got \(elements.count)")
        }
        var result: [Column] = []
        var seen: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            let column = try within(index) { () throws(Failure) in try readColumn(element) }
            if let first = seen[column.key] {
                throw Failure(pointer: JSONPointer(tokens: [String(index), "key"]),
                              message: "duplicate column key \(quotedKey(column.key)), also at /columns/\(first)/key")
            }
            seen[column.key] = index
            result.append(column)
        }
        return result
    }

    func readColumn(_ value: JSONValue) throws(Failure) -> Column {
        guard case .object(let object) = value else { throw typeMismatch("an object", value) }
        var key: String?
        var column = Column(key: "")
        for (name, member) in object {
            switch name {
            case "key": key = try within(name) { () throws(Failure) in try self.key(member) }
            case "title": column.title = try within(name) { () throws(Failure) in try text(member) }
            case "kind": column.kind = try within(name) { () throws(Failure) in try choice(member, ColumnKind.self) }
            default: throw unknownMember(name, of: "a column", allowed: "key, title, kind")
            }
        }
        guard let key else { throw missing("key", of: "a column") }
        column.key = key
        return column
    }

    // MARK: Sections and rows

    mutating func readSections(_ value: JSONValue) throws(Failure) -> [Section] {
        guard case .array(let elements) = value else { throw typeMismatch("an array of sections", value) }
        guard elements.count <= limits.maxSections else {
            throw Failure(pointer: .root,
                          message: "must hold at most \(limits.maxSections) sections, got \(elements.count)")
        }
        var result: [Section] = []
        result.reserveCapacity(elements.count)
        // Size the row-key table once: growing it row by row rehashes it ~20 times.
        var expectedRows = 0
        for element in elements {
            if case .object(let object) = element, case .array(let rows) = object["rows"] { expectedRows += rows.count }
        }
        rowPlaces.reserveCapacity(min(expectedRows, limits.maxRows))
        var seen: [String: Int] = [:]
        do throws(Failure) {
            for (index, element) in elements.enumerated() {
                let section = try within(index) { () throws(Failure) in try readSection(element, index: index) }
                try throwRepeatedRowKey(checkingPending: false)
                if let first = seen[section.key] {
                    throw Failure(pointer: JSONPointer(tokens: [String(index), "key"]),
                                  message: "duplicate section key \(quotedKey(section.key)), also at /sections/\(first)/key")
                }
                seen[section.key] = index
                result.append(section)
            }
            try throwRepeatedRowKey(checkingPending: true)
        } catch {
            // The rows read before the error come first: a repeated key among them wins.
            try throwRepeatedRowKey(checkingPending: true)
            throw error
        }
        return result
    }

    mutating func readSection(_ value: JSONValue, index: Int) throws(Failure) -> Section {
        var (section, rowsValue) = try sectionHeader(value)
        // Gathered in an array and cut into chunks once: appending to a `ChunkedArray` row by
        // row was ~10 % of a large document's validation (uniqueness checks, retains).
        var rows: [Row] = []
        rows.reserveCapacity(rowsValue.count)
        for (rowIndex, element) in rowsValue.enumerated() {
            let row = try within("rows", rowIndex) { () throws(Failure) in try readRowContent(element) }
            checkRowKeyLater(row.key, section: index, row: rowIndex)
            rows.append(row)
        }
        section.rows = ChunkedArray(rows)
        return section
    }

    /// A section's members other than its rows, checked in the order `readSection` checks
    /// them, and the elements of its `rows` (none when absent), unchecked.
    func sectionHeader(_ value: JSONValue) throws(Failure) -> (section: Section, rows: [JSONValue]) {
        guard case .object(let object) = value else { throw typeMismatch("an object", value) }
        var key: String?
        var section = Section(key: "")
        var rowsValue: [JSONValue] = []
        for (name, member) in object {
            switch name {
            case "key": key = try within(name) { () throws(Failure) in try self.key(member) }
            case "header": section.header = try within(name) { () throws(Failure) in try optionalText(member) }
            case "footer": section.footer = try within(name) { () throws(Failure) in try optionalText(member) }
            case "collapsible": section.collapsible = try within(name) { () throws(Failure) in try bool(member) }
            case "collapsed": section.collapsed = try within(name) { () throws(Failure) in try bool(member) }
            case "rows":
                guard case .array(let rows) = member else {
                    throw Failure(pointer: JSONPointer(tokens: [name]),
                                  message: "must be an array of rows, got \(member.typeName)")
                }
                rowsValue = rows
            default:
                throw unknownMember(name, of: "a section", allowed: "key, header, footer, collapsible, collapsed, rows")
            }
        }
        guard let key else { throw missing("key", of: "a section") }
        section.key = key
        return (section, rowsValue)
    }

    /// A row at `index` of section `section`, its key checked against the rows read before.
    mutating func readRow(_ value: JSONValue, section: Int, index: Int) throws(Failure) -> Row {
        let row = try readRowContent(value)
        if let first = rowPlaces.updateValue((section, index), forKey: row.key) {
            throw Failure(pointer: JSONPointer(tokens: ["key"]),
                          message: "duplicate row key \(quotedKey(row.key)), also at /sections/\(first.section)/rows/\(first.row)/key")
        }
        return row
    }

    /// A row, counted against the row limit; its key is not checked against other rows.
    mutating func readRowContent(_ value: JSONValue) throws(Failure) -> Row {
        rowCount += 1
        guard rowCount <= limits.maxRows else {
            throw Failure(pointer: .root, message: "the list may hold at most \(limits.maxRows) rows")
        }
        guard case .object(let object) = value else { throw typeMismatch("an object", value) }
        var key: String?
        var row = Row(key: "")
        // The members read in place (iterating copies each one: a retain and release per member).
        let members = object.storage.map { UnsafePointer($0.members) }
        for index in 0..<object.count {
            let member = members.unsafelyUnwrapped + index
            switch member.pointee.key {
            case "key": key = try within("key") { () throws(Failure) in try self.key(member.pointee.value) }
            case "cells": row.cells = try within("cells") { () throws(Failure) in try cells(member.pointee.value) }
            case "href":
                if !member.pointee.value.isNull {
                    row.href = try within("href") { () throws(Failure) in try url(member.pointee.value) }
                }
            case "style":
                row.style = try within("style") { () throws(Failure) in try choice(member.pointee.value, RowStyle.self) }
            default: throw unknownMember(member.pointee.key, of: "a row", allowed: "key, cells, href, style")
            }
        }
        withExtendedLifetime(object) {}
        guard let key else { throw missing("key", of: "a row") }
        row.key = key
        return row
    }

    // MARK: List-level members

    func state(_ value: JSONValue) throws(Failure) -> ListState {
        guard case .object(let object) = value else { throw typeMismatch("an object", value) }
        guard let kind = object["kind"] else { throw missing("kind", of: "a state") }
        switch kind {
        case "loading":
            for (name, _) in object where name != "kind" {
                throw unknownMember(name, of: "a loading state", allowed: "kind")
            }
            return .loading
        case "error":
            for (name, _) in object where name != "kind" && name != "message" {
                throw unknownMember(name, of: "an error state", allowed: "kind, message")
            }
            guard let message = object["message"] else { throw missing("message", of: "an error state") }
            return .error(message: try within("message") { () throws(Failure) in try text(message) })
        default:
            let got = kind.stringValue.map(quotedKey) ?? kind.typeName
            throw Failure(pointer: JSONPointer(tokens: ["kind"]), message: "must be \"loading\" or \"error\", got \(got)")
        }
    }

    func rowHeight(_ value: JSONValue) throws(Failure) -> Double {
        let range = ListDocument.rowHeightRange
        guard case .number(let number) = value else {
            throw typeMismatch("a number from \(format(range.lowerBound)) to \(format(range.upperBound))", value)
        }
        guard range.contains(number) else {
            throw Failure(pointer: .root, message:
                "must be a number from \(format(range.lowerBound)) to \(format(range.upperBound)), got \(format(number))")
        }
        return number
    }
}

/// The buffers `DocumentReader` reuses for each row's cells.
/// Used by one reader at a time, so its buffers skip the runtime's exclusivity checks (a
/// `beginAccess`/`endAccess` pair per cell, ~3 % of a large document's validation).
final class CellScratch {
    @exclusivity(unchecked) var cells: [(key: String, value: CellValue, column: Int)] = []
    @exclusivity(unchecked) var encoder = CellEncoder()
}
