/// A cell's place in a view's order (API.md section 9) as bytes: comparing two sort values byte by
/// byte (shorter first on a common prefix) is exactly the ascending order of their cells.
///
/// - Empty cells (missing, `""`, a link with empty text, an image without `alt`): no bytes. The
///   view puts them last in both directions (`ViewKey`), so their bytes never meet others'.
/// - Numbers: `0x01`, then the 8 bytes of the double with the sign bit flipped (all bits for
///   negatives), big-endian: numeric order; `-0` is `0`.
/// - Text: `0x02`, the *primary* form (below), `0x00`, then the text's own UTF-8 (code point order:
///   the last tie-break, so two different texts never compare equal).
///
/// The primary form reads the case-folded text scalar by scalar: a run of ASCII digits becomes
/// `0x30`, the count of its significant digits in 4 bytes, and those digits (numeric order;
/// `007` equals `7` here); any other scalar its UTF-8, with bytes `0x00` and `0x01` written as
/// `0x01 0x01` and `0x01 0x02`. Every scalar's encoding then begins with a byte above the
/// `0x00` that ends the form, so a text sorts before its extensions, and digit runs sit among
/// the scalars where `0`–`9` do.
struct SortValue: Sendable, Hashable {
    var bytes: [UInt8]

    static let empty = SortValue(bytes: [])

    var isEmpty: Bool { bytes.isEmpty }

    /// The sort value of a cell (`nil`: missing).
    init(_ value: CellValue?) {
        switch value {
        case nil: self.init(bytes: [])
        case .number(let number)?: self.init(number: number)
        case .text(let text)?: self.init(text: text.utf8)
        case .link(let text, _)?: self.init(text: text.utf8)
        case .image(_, let alt, _, _)?: self.init(text: alt.utf8)
        }
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    init(number: Double) {
        var out: [UInt8] = []
        Self.append(number: number, to: &out)
        self.init(bytes: out)
    }

    init(text utf8: some Collection<UInt8>) {
        var out: [UInt8] = []
        out.reserveCapacity(utf8.isEmpty ? 0 : utf8.count * 2 + 2)
        Self.append(text: utf8, to: &out)
        self.init(bytes: out)
    }

    /// Appends the sort value of a cell read in place to `out` (a view's arena of sort values).
    static func append(packed value: PackedValue, to out: inout [UInt8]) {
        switch value {
        case .number(let number): append(number: number, to: &out)
        case .text(let text): append(text: text, to: &out)
        case .link(let text, _): append(text: text, to: &out)
        case .image(_, let alt, _, _): append(text: alt, to: &out)
        }
    }

    /// Appends the sort value of `row`'s cell under the column keyed `column` (usually at its
    /// index `hint` among the row's cells), read in place, to `out`: nothing without such a cell.
    static func append(cellOf row: UnsafePointer<Row>, column: PackedKey, hint: Int, to out: inout [UInt8]) {
        row.pointee.cells.withPackedCells { cells in
            if let index = cells.index(of: column, hint: hint) { append(packed: cells[index].value, to: &out) }
        }
    }

    static func append(number: Double, to out: inout [UInt8]) {
        let bits = (number == 0 ? 0 : number).bitPattern
        let ordered = bits >> 63 == 1 ? ~bits : bits | (1 << 63)
        out.append(0x01)
        for index in 0..<8 { out.append(UInt8(truncatingIfNeeded: ordered >> (56 - 8 * index))) }
    }

    static func append(text utf8: some Collection<UInt8>, to out: inout [UInt8]) {
        guard !utf8.isEmpty else { return }
        out.append(0x02)
        appendPrimary(of: utf8, to: &out)
        out.append(0x00)
        out.append(contentsOf: utf8)
    }

    /// The primary form of a text: its order without the code point tie-break (filters compare
    /// by it: `eq:item 2` matches `Item 02`).
    static func primary(of utf8: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        appendPrimary(of: utf8, to: &out)
        return out
    }

    static func appendPrimary(of utf8: some Collection<UInt8>, to out: inout [UInt8]) {
        if utf8.withContiguousStorageIfAvailable({ appendPrimary(ascii: $0, to: &out) }) == true { return }
        appendPrimaryByScalars(of: utf8, to: &out)
    }

    /// `appendPrimary` scalar by scalar, folded: any text.
    static func appendPrimaryByScalars(of utf8: some Collection<UInt8>, to out: inout [UInt8]) {
        // A digit run is written as it comes (leading zeros skipped) after 5 bytes whose count
        // is filled in when it ends: no buffer of its own. (No nested function: one capturing
        // `out` made every access a checked one.)
        var runStart = -1
        CaseFolding.forEachFoldedScalar(utf8) { scalar in
            let value = scalar.value
            if value >= 0x30 && value <= 0x39 {
                if runStart < 0 {
                    runStart = out.count
                    out.append(0x30)
                    for _ in 0..<4 { out.append(0) }
                }
                // Leading zeros are not significant.
                if value != 0x30 || out.count > runStart + 5 { out.append(UInt8(value)) }
                return
            }
            if runStart >= 0 {
                endDigitRun(at: runStart, in: &out)
                runStart = -1
            }
            if value <= 1 {
                out.append(0x01)
                out.append(UInt8(value) + 1)
            } else {
                appendUTF8(scalar, to: &out)
            }
        }
        if runStart >= 0 { endDigitRun(at: runStart, in: &out) }
    }

    /// Writes the count of the digits after the run's 5 bytes at `start` into its last 4.
    private static func endDigitRun(at start: Int, in out: inout [UInt8]) {
        out.withUnsafeMutableBufferPointer { writeRunCount(at: start, end: $0.count, in: $0) }
    }

    /// Writes the count of the digits between the run's 5 bytes at `start` and `end` into its last 4.
    @inline(__always)
    static func writeRunCount(at start: Int, end: Int, in form: UnsafeMutableBufferPointer<UInt8>) {
        let count = UInt32(end - start - 5)
        form[start + 1] = UInt8(count >> 24)
        form[start + 2] = UInt8((count >> 16) & 0xFF)
        form[start + 3] = UInt8((count >> 8) & 0xFF)
        form[start + 4] = UInt8(count & 0xFF)
    }

    /// Byte order: negative, zero or positive as `self` sorts before, with or after `other`.
    @inline(__always)
    func compare(_ other: SortValue) -> Int {
        compareBytes(bytes, other.bytes)
    }
}

/// Byte-by-byte comparison, a shorter array first on a common prefix: -1, 0 or 1.
@inline(__always)
func compareBytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
    a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in compareBytes(a, b) } }
}

/// `compareBytes` over buffers.
@inline(__always)
func compareBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
    let count = min(a.count, b.count)
    var index = 0
    while index < count {
        if a[index] != b[index] { return a[index] < b[index] ? -1 : 1 }
        index += 1
    }
    return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
}

/// A row's place in a view: its sort value, then its order key (ties keep list order).
struct ViewKey: Sendable, Hashable {
    var sortValue: SortValue
    var orderKey: OrderKey

    /// Whether `self` comes before `other` in a view sorted `descending` (or not): empty sort
    /// values last either way, then the sort values, then the order keys ascending.
    @inline(__always)
    func precedes(_ other: ViewKey, descending: Bool) -> Bool {
        sortValue.bytes.withUnsafeBufferPointer { a in
            other.sortValue.bytes.withUnsafeBufferPointer { b in
                Self.precedes(a, orderKey, b, other.orderKey, descending: descending)
            }
        }
    }

    /// `precedes` for keys given as their sort values' bytes and their order keys.
    @inline(__always)
    static func precedes(
        _ a: UnsafeBufferPointer<UInt8>, _ aOrder: OrderKey, _ b: UnsafeBufferPointer<UInt8>, _ bOrder: OrderKey,
        descending: Bool
    ) -> Bool {
        if a.isEmpty != b.isEmpty { return b.isEmpty }
        let order = compareBytes(a, b)
        if order != 0 { return descending ? order > 0 : order < 0 }
        return aOrder < bOrder
    }
}
