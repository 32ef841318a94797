extension Row {
    /// Validates one row's JSON against a list's columns, as `ListDocument(json:)` would
    /// inside a document: the error's pointer is relative to the row (`/cells/pop`).
    ///
    /// Uniqueness of the key in the list is the caller's check (see `insertRows`).
    public init(json: JSONValue, columns: [Column]) throws(ListDocumentError) {
        var reader = DocumentReader(limits: ListDocument.Limits())
        reader.columns = columns
        for (index, column) in columns.enumerated() { reader.columnIndex[ByteKey(column.key)] = index }
        self = try reader.readRow(json, section: 0, index: 0)
    }

    /// Validates a JSON array of rows (the body of a row append); pointers start with the
    /// element's index (`/2/cells/pop`).
    public static func rows(json: JSONValue, columns: [Column]) throws(ListDocumentError) -> [Row] {
        guard case .array(let elements) = json else {
            throw ListDocumentError(pointer: .root, message: "must be an array of rows, got \(json.typeName)")
        }
        var rows: [Row] = []
        rows.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do {
                rows.append(try Row(json: element, columns: columns))
            } catch {
                throw error.prefixed([String(index)])
            }
        }
        return rows
    }
}
