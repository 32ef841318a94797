// Reading a view's parameters from a request and checking them against a document's columns.

extension ListQuery {
    /// Reads the view parameters among `parameters` (any order; names that are not view
    /// parameters are ignored) and checks them against `columns`.
    ///
    /// - Throws: `ListQueryError` naming the first offending parameter: an unknown column or
    ///   operator, a value that does not fit its column (a number column's must be a JSON
    ///   number), `sort` with `sort_desc`, a parameter given twice, more than 8 filters, or a `q`
    ///   or filter value of 0 or more than 256 bytes.
    public init(parameters: [(name: String, value: String)], columns: [Column]) throws(ListQueryError) {
        var query = ListQuery()
        var sortName: String?
        var seenSearch = false
        for (name, value) in parameters {
            switch name {
            case "sort", "sort_desc":
                if let sortName {
                    let message = sortName == name ? "is given twice" : "cannot be given with \(sortName)"
                    throw ListQueryError(parameter: name, message: message)
                }
                sortName = name
                query.sort = Sort(column: value, descending: name == "sort_desc")
            case "q":
                guard !seenSearch else { throw ListQueryError(parameter: name, message: "is given twice") }
                seenSearch = true
                query.search = value
            default:
                guard name.hasPrefix("filter.") else { continue }
                let column = String(name.dropFirst("filter.".count))
                guard !query.filters.contains(where: { $0.column == column }) else {
                    throw ListQueryError(parameter: name, message: "is given twice: one filter per column")
                }
                guard query.filters.count < Self.maxFilters else {
                    throw ListQueryError(parameter: name, message: "is one filter too many: at most \(Self.maxFilters)")
                }
                query.filters.append(try Self.filter(column: column, text: value, parameter: name))
            }
        }
        self = try query.validated(for: columns)
    }

    /// `filter.COLUMN`'s value split into operator and value (not yet checked against the column).
    private static func filter(column: String, text: String, parameter: String) throws(ListQueryError) -> Filter {
        let opText = text.firstIndex(of: ":").map { String(text[..<$0]) } ?? text
        guard let op = FilterOperator(rawValue: opText) else {
            let known = FilterOperator.allCases.map(\.rawValue).joined(separator: ", ")
            throw ListQueryError(parameter: parameter, message: "unknown operator \(quotedKey(opText)) (one of \(known))")
        }
        let value = text.firstIndex(of: ":").map { String(text[text.index(after: $0)...]) }
        return Filter(column: column, op: op, value: value)
    }

    /// This query checked against `columns`, with number values in canonical JSON form.
    ///
    /// - Throws: `ListQueryError` as `init(parameters:columns:)` does.
    public func validated(for columns: [Column]) throws(ListQueryError) -> ListQuery {
        var query = self
        if let sort, !columns.contains(where: { utf8Equal($0.key, sort.column) }) {
            throw ListQueryError(
                parameter: sort.descending ? "sort_desc" : "sort",
                message: "unknown column \(quotedKey(sort.column))")
        }
        if let search {
            let bytes = search.utf8.count
            guard (1...Self.maxTextBytes).contains(bytes) else {
                throw ListQueryError(parameter: "q", message: "must be 1 to \(Self.maxTextBytes) bytes, got \(bytes)")
            }
        }
        guard filters.count <= Self.maxFilters else {
            throw ListQueryError(
                parameter: "filter.\(filters[Self.maxFilters].column)",
                message: "is one filter too many: at most \(Self.maxFilters)")
        }
        var seen = Set<ByteKey>()
        for (index, filter) in filters.enumerated() {
            let parameter = "filter.\(filter.column)"
            guard seen.insert(ByteKey(filter.column)).inserted else {
                throw ListQueryError(parameter: parameter, message: "is given twice: one filter per column")
            }
            guard let column = columns.first(where: { utf8Equal($0.key, filter.column) }) else {
                throw ListQueryError(parameter: parameter, message: "unknown column \(quotedKey(filter.column))")
            }
            query.filters[index].value = try Self.checkedValue(of: filter, column: column, parameter: parameter)
        }
        return query
    }

    /// A filter's value if it fits the operator and column; numbers in canonical JSON form.
    private static func checkedValue(of filter: Filter, column: Column, parameter: String) throws(ListQueryError) -> String? {
        guard filter.op.takesValue else {
            guard filter.value == nil else {
                throw ListQueryError(parameter: parameter, message: "\(filter.op.rawValue) takes no value")
            }
            return nil
        }
        guard let value = filter.value, !value.isEmpty else {
            throw ListQueryError(parameter: parameter, message: "\(filter.op.rawValue) needs a value: \(filter.op.rawValue):VALUE")
        }
        guard value.utf8.count <= maxTextBytes else {
            throw ListQueryError(parameter: parameter, message: "the value must be at most \(maxTextBytes) bytes, got \(value.utf8.count)")
        }
        guard column.kind == .number else { return value }
        guard let number = jsonNumber(value) else {
            throw ListQueryError(
                parameter: parameter,
                message: "\(quotedKey(value)) is not a JSON number (column \(quotedKey(column.key)) holds numbers)")
        }
        // Text matches (`contains`, `prefix`) compare the value as written.
        if filter.op == .contains || filter.op == .prefix { return value }
        return String(decoding: JSONValue.number(number).serialized(), as: UTF8.self)
    }
}

/// The value of `text` when it is exactly a finite JSON number (RFC 8259 grammar, no spaces).
func jsonNumber(_ text: String) -> Double? {
    var bytes = Array(text.utf8)[...]
    func digits() -> Int {
        let count = bytes.prefix { (0x30...0x39).contains($0) }.count
        bytes = bytes.dropFirst(count)
        return count
    }
    if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    if bytes.first == UInt8(ascii: "0") {
        bytes = bytes.dropFirst()
    } else if digits() == 0 {
        return nil
    }
    if bytes.first == UInt8(ascii: ".") {
        bytes = bytes.dropFirst()
        guard digits() > 0 else { return nil }
    }
    if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
        bytes = bytes.dropFirst()
        if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard digits() > 0 else { return nil }
    }
    guard bytes.isEmpty, let value = Double(text), value.isFinite else { return nil }
    return value
}
