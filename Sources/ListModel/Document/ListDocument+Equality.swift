/// Equality of a list's parts compares every string by its UTF-8 bytes (`utf8Equal`), as keys
/// and JSON values compare (docs/API.md, "Keys"): a row whose key or text changed from NFC to
/// NFD is a changed row, stored and sent as one. Swift's synthesized `==` would compare
/// `String`s by canonical equivalence.
extension ListDocument {
    public static func == (lhs: ListDocument, rhs: ListDocument) -> Bool {
        utf8Equal(lhs.title, rhs.title) && lhs.columns == rhs.columns && lhs.sections == rhs.sections
            && optionalUTF8Equal(lhs.emptyText, rhs.emptyText) && lhs.state == rhs.state
            && lhs.rowHeight == rhs.rowHeight && lhs.estimatedRowHeight == rhs.estimatedRowHeight
    }
}

extension Column {
    public static func == (lhs: Column, rhs: Column) -> Bool {
        utf8Equal(lhs.key, rhs.key) && utf8Equal(lhs.title, rhs.title) && lhs.kind == rhs.kind
    }
}

extension Section {
    public static func == (lhs: Section, rhs: Section) -> Bool {
        utf8Equal(lhs.key, rhs.key) && optionalUTF8Equal(lhs.header, rhs.header)
            && optionalUTF8Equal(lhs.footer, rhs.footer) && lhs.collapsible == rhs.collapsible
            && lhs.collapsed == rhs.collapsed && lhs.rows == rhs.rows
    }
}

extension Row {
    public static func == (lhs: Row, rhs: Row) -> Bool {
        utf8Equal(lhs.key, rhs.key) && lhs.cells == rhs.cells && optionalUTF8Equal(lhs.href, rhs.href)
            && lhs.style == rhs.style
    }
}

extension CellValue {
    public static func == (lhs: CellValue, rhs: CellValue) -> Bool {
        switch (lhs, rhs) {
        case (.text(let a), .text(let b)): return utf8Equal(a, b)
        case (.number(let a), .number(let b)): return a == b
        case (.link(let aText, let aHref), .link(let bText, let bHref)):
            return utf8Equal(aText, bText) && utf8Equal(aHref, bHref)
        case (.image(let aSrc, let aAlt, let aWidth, let aHeight), .image(let bSrc, let bAlt, let bWidth, let bHeight)):
            return utf8Equal(aSrc, bSrc) && utf8Equal(aAlt, bAlt) && aWidth == bWidth && aHeight == bHeight
        default: return false
        }
    }
}

extension ListState {
    public static func == (lhs: ListState, rhs: ListState) -> Bool {
        switch (lhs, rhs) {
        case (.loading, .loading): return true
        case (.error(let a), .error(let b)): return utf8Equal(a, b)
        default: return false
        }
    }
}

/// Whether two optional strings are both nil or equal byte for byte.
public func optionalUTF8Equal(_ a: String?, _ b: String?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (let a?, let b?): return utf8Equal(a, b)
    default: return false
    }
}
