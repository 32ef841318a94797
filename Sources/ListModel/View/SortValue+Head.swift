// The start of a text's sort value, enough to compare it by its prefix (`ViewOrder.prefix`):
// the first rows of a view (`ViewReading.firstRows`) read most rows' values only this far.

extension SortValue {
    /// How many of a sort value's first bytes `ViewOrder.prefix` reads.
    static let headBytes = 16

    /// Appends to `out` at least the first `headBytes` of the sort value of `row`'s cell under
    /// `column` (usually at index `hint`), exactly as `append(cellOf:column:hint:to:)` writes
    /// them, and returns true, for a text long enough that its start is cheaper to read than all
    /// of it; otherwise appends the whole value (nothing for no cell) and returns false.
    static func appendHead(cellOf row: UnsafePointer<Row>, column: PackedKey, hint: Int, to out: inout [UInt8]) -> Bool {
        row.pointee.cells.withPackedCells { cells in
            guard let index = cells.index(of: column, hint: hint) else { return false }
            switch cells[index].value {
            case .text(let text), .link(let text, _), .image(_, let text, _, _):
                return appendHead(text: text, to: &out)
            case .number(let number):
                append(number: number, to: &out)
                return false
            }
        }
    }

    /// `appendHead(cellOf:…)` for a text: the value of a start of it cut where its primary form
    /// does not change (between two scalars, not inside a run of digits), long enough to give
    /// `headBytes`; the whole value when no such start is shorter than the text.
    static func appendHead(text utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
        let start = out.count
        var cut = headBytes
        while cut < utf8.count {
            var end = cut
            while end < utf8.count && (utf8[end] & 0xC0 == 0x80 || (isDigit(utf8[end]) && isDigit(utf8[end - 1]))) { end += 1 }
            guard end < utf8.count else { break }
            out.append(0x02)
            appendPrimary(of: UnsafeBufferPointer(rebasing: utf8[..<end]), to: &out)
            if out.count - start >= headBytes { return true }
            out.removeSubrange(start...)
            cut = 2 * end
        }
        append(text: utf8, to: &out)
        return false
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
