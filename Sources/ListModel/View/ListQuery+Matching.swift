// Which rows a query keeps: `q` and the filters, compiled once per view, tested on the cells
// in place (`RowCells.withPackedCells`).

/// A validated query prepared for testing rows: folded texts, primary forms and numbers
/// computed once.
struct RowMatcher: Sendable {
    private enum Test {
        case number(op: ListQuery.FilterOperator, value: Double)
        case primary(op: ListQuery.FilterOperator, value: [UInt8])
        case text(op: ListQuery.FilterOperator, folded: [UInt8])
        case presence(empty: Bool)
    }

    /// The document's columns: a cell shows only under a declared column.
    private let columns: [Column]
    /// One test per filter, with the index of its column in `columns`.
    private let tests: [(column: Int, test: Test)]
    private let search: [UInt8]?

    /// - Precondition: `query` was validated for `columns` (`ListQuery.validated(for:)`).
    init(_ query: ListQuery, columns: [Column]) {
        self.columns = columns
        search = query.search.map { CaseFolding.foldedUTF8($0.utf8) }
        tests = query.filters.map { filter in
            let column = columns.firstIndex { utf8Equal($0.key, filter.column) }!
            let value = filter.value ?? ""
            let test: Test
            switch filter.op {
            case .empty, .nonempty: test = .presence(empty: filter.op == .empty)
            case .contains, .prefix: test = .text(op: filter.op, folded: CaseFolding.foldedUTF8(value.utf8))
            default:
                test =
                    columns[column].kind == .number
                    ? .number(op: filter.op, value: Double(value)!)
                    : .primary(op: filter.op, value: SortValue.primary(of: value.utf8))
            }
            return (column, test)
        }
    }

    /// Whether the query keeps every row.
    var keepsAll: Bool { search == nil && tests.isEmpty }

    /// Whether `row` satisfies every filter and, with `q`, shows it in one of its cells.
    func matches(_ row: Row) -> Bool {
        var scratch: [UInt8] = []
        return matches(row, scratch: &scratch)
    }

    /// `matches(_:)`, folding texts into `scratch` (one buffer for all the rows of a view).
    func matches(_ row: Row, scratch: inout [UInt8]) -> Bool {
        row.cells.withPackedCells { cells in
            for (column, test) in tests {
                let index = cells.index(of: columns[column].packedKey, hint: column)
                guard Self.satisfies(index.map { cells[$0].value }, test, scratch: &scratch) else { return false }
            }
            guard let search else { return true }
            for (position, column) in columns.enumerated() {
                guard let index = cells.index(of: column.packedKey, hint: position) else { continue }
                withShownText(cells[index].value) { CaseFolding.fold($0, into: &scratch) }
                if containsBytes(scratch, search) { return true }
            }
            return false
        }
    }

    private static func satisfies(_ cell: PackedValue?, _ test: Test, scratch: inout [UInt8]) -> Bool {
        let isEmpty = cell.map { withShownText($0) { $0.isEmpty } } ?? true
        if case .presence(let empty) = test { return isEmpty == empty }
        guard !isEmpty, let cell else { return false }
        switch test {
        case .presence: return false
        case .number(let op, let value):
            guard case .number(let number) = cell else { return false }
            return compare(number < value ? -1 : (number > value ? 1 : 0), op)
        case .primary(let op, let value):
            return withShownText(cell) { compare(compareBytes(SortValue.primary(of: $0), value), op) }
        case .text(let op, let folded):
            withShownText(cell) { CaseFolding.fold($0, into: &scratch) }
            return op == .prefix ? scratch.starts(with: folded) : containsBytes(scratch, folded)
        }
    }

    /// Whether an ordering `order` (-1, 0, 1 as the cell sorts before, with or after the value)
    /// satisfies `op`.
    private static func compare(_ order: Int, _ op: ListQuery.FilterOperator) -> Bool {
        switch op {
        case .eq: return order == 0
        case .ne: return order != 0
        case .lt: return order < 0
        case .le: return order <= 0
        case .gt: return order > 0
        case .ge: return order >= 0
        default: return false
        }
    }
}

/// Calls `body` with the UTF-8 of the text a cell shows (`CellValue.shownText`), in place.
@inline(__always)
func withShownText<Result>(_ value: PackedValue, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    switch value {
    case .text(let text): return body(text)
    case .number(let number): return CellValue.withFormattedNumber(number, body)
    case .link(let text, _): return body(text)
    case .image(_, let alt, _, _): return body(alt)
    }
}
