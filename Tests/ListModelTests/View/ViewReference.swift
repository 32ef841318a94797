@testable import ListModel

/// API.md section 9 written out plainly, to check the library against: no sort keys, no
/// binary search; a comparison and a filter straight from the contract's sentences.
/// (Case folding itself is `CaseFolding`, checked on its own in CaseFoldingTests.)
struct ViewReference {
    let document: ListDocument
    let query: ListQuery
    /// Each row's order key (its list position).
    let orderKeys: [String: OrderKey]

    /// The view's sections: key and row keys in view order.
    func sections() -> [(key: String, rows: [String])] {
        var out: [(key: String, rows: [String])] = []
        for section in document.sections {
            var rows: [Row] = []
            for row in section.rows where matches(row) { rows.append(row) }
            if rows.isEmpty && (query.search != nil || !query.filters.isEmpty) { continue }
            // Insertion sort with the contract's comparison: slow and obvious.
            var sorted: [Row] = []
            for row in rows {
                var index = sorted.count
                while index > 0, comesBefore(row, sorted[index - 1]) { index -= 1 }
                sorted.insert(row, at: index)
            }
            out.append((section.key, sorted.map(\.key)))
        }
        return out
    }

    /// Whether row `a` comes before row `b` in the view (same section).
    func comesBefore(_ a: Row, _ b: Row) -> Bool {
        guard let sort = query.sort else { return orderKeys[a.key]! < orderKeys[b.key]! }
        return comesBefore(a.cells[sort.column], orderKeys[a.key]!, b.cells[sort.column], orderKeys[b.key]!)
    }

    /// Whether a row with cell `a` and order key `ka` comes before one with `b` and `kb`.
    func comesBefore(_ a: CellValue?, _ ka: OrderKey, _ b: CellValue?, _ kb: OrderKey) -> Bool {
        guard query.sort != nil else { return ka < kb }
        let aEmpty = isEmpty(a), bEmpty = isEmpty(b)
        if aEmpty != bEmpty { return bEmpty }  // empty cells last, in both directions
        if !aEmpty {
            let order = compare(a!, b!)
            if order != 0 { return query.sort!.descending ? order > 0 : order < 0 }
        }
        return ka < kb  // ties keep list order
    }

    func isEmpty(_ cell: CellValue?) -> Bool { cell == nil || cell!.shownText.isEmpty }

    /// -1, 0, 1: numbers as numbers, anything else as text (fold, digit runs, code points).
    func compare(_ a: CellValue, _ b: CellValue) -> Int {
        if case .number(let x) = a, case .number(let y) = b { return x < y ? -1 : (x > y ? 1 : 0) }
        let primary = comparePrimary(a.shownText, b.shownText)
        if primary != 0 { return primary }
        let x = a.shownText.unicodeScalars.map(\.value), y = b.shownText.unicodeScalars.map(\.value)
        return x.lexicographicallyPrecedes(y) ? -1 : (x == y ? 0 : 1)
    }

    /// Folded texts token by token: a run of ASCII digits is one token, compared with another
    /// run by numeric value, with anything else by its first code point.
    func comparePrimary(_ a: String, _ b: String) -> Int {
        let x = tokens(a), y = tokens(b)
        for (s, t) in zip(x, y) {
            let order: Int
            switch (s.first!.isDigit, t.first!.isDigit) {
            case (true, true): order = compareNumerals(s, t)
            default: order = s.first!.value < t.first!.value ? -1 : (s.first!.value > t.first!.value ? 1 : 0)
            }
            if order != 0 { return order }
        }
        return x.count < y.count ? -1 : (x.count > y.count ? 1 : 0)
    }

    func compareNumerals(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        let x = a.drop { $0 == "0" }.map(\.value), y = b.drop { $0 == "0" }.map(\.value)
        if x.count != y.count { return x.count < y.count ? -1 : 1 }
        return x.lexicographicallyPrecedes(y) ? -1 : (x == y ? 0 : 1)
    }

    func tokens(_ text: String) -> [[Unicode.Scalar]] {
        var out: [[Unicode.Scalar]] = []
        for scalar in fold(text) {
            if scalar.isDigit, let last = out.last, last.first!.isDigit {
                out[out.count - 1].append(scalar)
            } else {
                out.append([scalar])
            }
        }
        return out
    }

    func fold(_ text: String) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars { CaseFolding.fold(scalar) { out.append($0) } }
        return out
    }

    func contains(_ text: String, _ part: String) -> Bool {
        let x = fold(text), y = fold(part)
        if y.isEmpty { return true }
        guard x.count >= y.count else { return false }
        return (0...(x.count - y.count)).contains { Array(x[$0..<($0 + y.count)]) == y }
    }

    func matches(_ row: Row) -> Bool {
        if let q = query.search {
            let shown = document.columns.compactMap { row.cells[$0.key]?.shownText }
            if !shown.contains(where: { contains($0, q) }) { return false }
        }
        for filter in query.filters where !satisfies(row.cells[filter.column], filter) { return false }
        return true
    }

    func satisfies(_ cell: CellValue?, _ filter: ListQuery.Filter) -> Bool {
        if isEmpty(cell) { return filter.op == .empty }
        let cell = cell!
        let value = filter.value ?? ""
        let order: Int
        if case .number(let x) = cell {
            let y = Double(value)
            order = y.map { x < $0 ? -1 : (x > $0 ? 1 : 0) } ?? 0
        } else {
            order = comparePrimary(cell.shownText, value)
        }
        switch filter.op {
        case .empty: return false
        case .nonempty: return true
        case .eq: return order == 0
        case .ne: return order != 0
        case .lt: return order < 0
        case .le: return order <= 0
        case .gt: return order > 0
        case .ge: return order >= 0
        case .contains: return contains(cell.shownText, value)
        case .prefix: return fold(cell.shownText).starts(with: fold(value))
        }
    }
}

extension Unicode.Scalar {
    var isDigit: Bool { ("0"..."9").contains(self) }
}
