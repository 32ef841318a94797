/// The exact byte counts of values as `JSONValue.serialized()` writes their canonical JSON,
/// computed from the model without building any JSON.
///
/// The diff weighs a fine-grained patch against replacing a value whole, and the whole patch
/// against replacing the document. Tests check every function here against `serialized()`.
enum CanonicalSize {
    /// A JSON string literal: quotes, raw UTF-8, and the serializer's escapes.
    static func string(_ string: String) -> Int {
        var string = string
        return string.withUTF8 { bytes in
            var size = 2 + bytes.count
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != 0xE2 { continue }
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09, 0x08, 0x0C: size += 1
                case 0xE2:
                    // U+2028 and U+2029 (E2 80 A8/A9): six-byte escapes instead of three bytes.
                    if index + 1 < bytes.count && bytes[index] == 0x80 && bytes[index + 1] & 0xFE == 0xA8 { size += 3 }
                default: size += 5
                }
            }
            return size
        }
    }

    /// A number: integers within ±2^53 as digits, others in shortest round-trip form.
    static func number(_ value: Double) -> Int {
        guard value.isFinite else { return 4 }
        if value == value.rounded(.towardZero) && abs(value) <= 9_007_199_254_740_992 {
            var magnitude = Int64(value).magnitude
            var digits = 1
            while magnitude >= 10 {
                magnitude /= 10
                digits += 1
            }
            return value < 0 ? digits + 1 : digits
        }
        return value.description.utf8.count
    }

    /// A cell value.
    static func cell(_ value: CellValue) -> Int {
        switch value {
        case .text(let text):
            return string(text)
        case .number(let value):
            return number(value)
        case .link(let text, let href):
            return #"{"text":,"href":}"#.utf8.count + string(text) + string(href)
        case .image(let src, let alt, let width, let height):
            var size = #"{"src":,"alt":}"#.utf8.count + string(src) + string(alt)
            if let width { size += #","width":"#.utf8.count + number(width) }
            if let height { size += #","height":"#.utf8.count + number(height) }
            return size
        }
    }

    /// A row: `{"key","cells","href"?,"style"}`.
    static func row(_ row: Row) -> Int {
        var size = #"{"key":,"cells":{},"style":}"#.utf8.count + string(row.key) + string(row.style.rawValue)
        if !row.cells.isEmpty {
            size += row.cells.count - 1  // commas
            for (key, value) in row.cells { size += string(key) + 1 + cell(value) }
        }
        if let href = row.href { size += #","href":"#.utf8.count + string(href) }
        return size
    }

    /// A section with these rows: `{"key","header","footer","collapsible","collapsed","rows"}`.
    static func section<Rows: Sequence<Row>>(_ section: Section, rows: Rows) -> Int {
        var size = #"{"key":,"header":,"footer":,"collapsible":,"collapsed":,"rows":[]}"#.utf8.count
        size += string(section.key) + optionalString(section.header) + optionalString(section.footer)
        size += (section.collapsible ? 4 : 5) + (section.collapsed ? 4 : 5)
        var first = true
        for row in rows {
            size += (first ? 0 : 1) + Self.row(row)
            first = false
        }
        return size
    }

    /// A column: `{"key","title","kind"}`.
    static func column(_ column: Column) -> Int {
        #"{"key":,"title":,"kind":}"#.utf8.count + string(column.key) + string(column.title)
            + string(column.kind.rawValue)
    }

    /// An array of columns.
    static func columns(_ columns: [Column]) -> Int {
        2 + max(columns.count - 1, 0) + columns.reduce(0) { $0 + column($1) }
    }

    /// A list state: `{"kind":"loading"}` or `{"kind":"error","message"}`.
    static func state(_ state: ListState) -> Int {
        switch state {
        case .loading: return #"{"kind":"loading"}"#.utf8.count
        case .error(let message): return #"{"kind":"error","message":}"#.utf8.count + string(message)
        }
    }

    /// A string or `null`.
    static func optionalString(_ value: String?) -> Int { value.map(string) ?? 4 }

    /// The whole document. O(size of the document).
    static func document(_ document: ListDocument) -> Int {
        var size = #"{"title":,"columns":,"sections":[]}"#.utf8.count
        size += string(document.title) + columns(document.columns)
        size += max(document.sections.count - 1, 0)
        for section in document.sections { size += Self.section(section, rows: section.rows) }
        if let emptyText = document.emptyText { size += #","emptyText":"#.utf8.count + string(emptyText) }
        if let state = document.state { size += #","state":"#.utf8.count + Self.state(state) }
        if let height = document.rowHeight { size += #","rowHeight":"#.utf8.count + number(height) }
        if let height = document.estimatedRowHeight {
            size += #","estimatedRowHeight":"#.utf8.count + number(height)
        }
        return size
    }

    /// A lower bound of ``document(_:)`` in O(rows) without reading strings: a frame per
    /// section and ``rowLowerBound(_:)`` plus a comma per row.
    static func documentLowerBound(_ document: ListDocument) -> Int {
        var size = 0
        for section in document.sections {
            size += 60
            for row in section.rows { size += rowLowerBound(row) + 1 }
        }
        return size
    }

    /// A lower bound of ``row(_:)`` in O(1): `{"key":KEY,"cells":{},"style":"muted"}` and
    /// `"k":0,` per cell, counting bytes but no escapes.
    static func rowLowerBound(_ row: Row) -> Int {
        var size = #"{"key":"","cells":{},"style":"muted"}"#.utf8.count + row.key.utf8.count + 5 * row.cells.count
        if let href = row.href { size += #","href":"""#.utf8.count + href.utf8.count }
        return size
    }
}
