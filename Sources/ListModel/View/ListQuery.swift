/// A view of a list (API.md section 9): an optional sort column and direction, a search text
/// (`q`) and up to 8 filters, one per column.
///
/// Read one from a request's query items with `init(parameters:columns:)`, which validates it
/// against a document's columns, or build one in Swift and pass it to `IndexedList.view(_:)`,
/// which validates it the same way. `canonicalParameters`, `queryString` and `fingerprint` do not
/// depend on the order the parameters came in.
public struct ListQuery: Sendable, Hashable {
    /// Rows in order of one column, within each section.
    public struct Sort: Sendable, Hashable {
        public var column: String
        public var descending: Bool

        public init(column: String, descending: Bool = false) {
            self.column = column
            self.descending = descending
        }
    }

    /// A condition on one column's cell.
    public struct Filter: Sendable, Hashable {
        public var column: String
        public var op: FilterOperator
        /// The text after `OP:`; `nil` for `empty` and `nonempty`.
        public var value: String?

        public init(column: String, op: FilterOperator, value: String? = nil) {
            self.column = column
            self.op = op
            self.value = value
        }
    }

    /// The filter operators. An empty cell satisfies `empty` and no other, as NULL in SQL.
    public enum FilterOperator: String, Sendable, Hashable, CaseIterable {
        /// Comparisons by the view order, ignoring its last tie-break (code points): for text,
        /// case-insensitive with digit runs as numbers (`eq:item 2` matches `Item 02`).
        case eq, ne, lt, le, gt, ge
        /// The cell's shown text contains, or begins with, the value, case-insensitively.
        case contains, prefix
        case empty, nonempty

        /// Whether the operator takes a value (`OP:VALUE`).
        public var takesValue: Bool { self != .empty && self != .nonempty }
    }

    /// The most filters a query may hold.
    public static let maxFilters = 8
    /// The longest `q` and filter value, in UTF-8 bytes.
    public static let maxTextBytes = 256

    public var sort: Sort?
    /// The search text (`q`): rows one of whose cells shows it, case-insensitively.
    public var search: String?
    /// The filters; all must hold. Kept in column key order (by UTF-8 bytes).
    public var filters: [Filter] {
        didSet { filters.sort { $0.column.utf8.lexicographicallyPrecedes($1.column.utf8) } }
    }

    public init(sort: Sort? = nil, search: String? = nil, filters: [Filter] = []) {
        self.sort = sort
        self.search = search
        self.filters = filters.sorted { $0.column.utf8.lexicographicallyPrecedes($1.column.utf8) }
    }

    /// Whether the query keeps only some rows (`q` or a filter): sections without a matching row
    /// are then left out.
    public var selectsRows: Bool { search != nil || !filters.isEmpty }

    /// Whether the query is the list itself: no sort, no `q`, no filter.
    public var isIdentity: Bool { sort == nil && !selectsRows }

    /// The parameters in a fixed order: `sort` or `sort_desc`, the filters by column key, `q`.
    public var canonicalParameters: [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        if let sort { items.append((sort.descending ? "sort_desc" : "sort", sort.column)) }
        for filter in filters {
            let value = filter.value.map { "\(filter.op.rawValue):\($0)" } ?? filter.op.rawValue
            items.append(("filter.\(filter.column)", value))
        }
        if let search { items.append(("q", search)) }
        return items
    }

    /// The canonical parameters as a URL query (no leading `?`; empty for the identity query),
    /// every byte outside RFC 3986's unreserved set percent-encoded, for links.
    public var queryString: String {
        canonicalParameters.map { percentEncoded($0.name) + "=" + percentEncoded($0.value) }.joined(separator: "&")
    }

    /// A 64-bit FNV-1a hash of `queryString`: the same on every instance and in every run.
    public var fingerprint: UInt64 { fnv1a64(queryString.utf8) }
}

/// 64-bit FNV-1a.
func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return hash
}

/// `text` with every byte outside `A-Z a-z 0-9 - . _ ~` written as `%XX`.
func percentEncoded(_ text: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            out.append(byte)
        default:
            out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        }
    }
    return String(decoding: out, as: UTF8.self)
}
