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
    var columnIndex: [ByteKey: Int] = [:]
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
                throw unknownMember(
                    name, of: "a list document",
                    allowed: "title, columns, sections, emptyText, state, rowHeight, estimatedRowHeight")
            }
        }
        guard let title else { throw missing("title", of: "a list document") }
        doc.title = title
        if let columnsValue {
            doc.columns = try within("columns") { () throws(Failure) in try readColumns(columnsValue) }
        }
        columns = doc.columns
        for (index, column) in columns.enumerated() { columnIndex[ByteKey(column.key)] = index }
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
        var seen: [ByteKey: Int] = [:]
        for (index, element) in elements.enumerated() {
            let column = try within(index) { () throws(Failure) in try readColumn(element) }
            if let first = seen[ByteKey(column.key)] {
                throw Failure(
                    pointer: JSONPointer(tokens: [String(index), "key"]),
                    message: "duplicate column key \(quotedKey(column.key)), also at /columns/\(first)/key")
            }
            seen[ByteKey(column.key)] = index
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
            throw Failure(
                pointer: .root,
                message:
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
