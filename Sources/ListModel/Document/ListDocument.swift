/// A list: a titled table of keyed sections of keyed rows (API.md section 1).
///
/// Build one from JSON with `ListDocument(json:)`, which validates and canonicalises,
/// or in Swift with the `List { … }` builder. `json` gives the canonical form back.
public struct ListDocument: Sendable, Equatable {
    /// The caption of the table.
    public var title: String
    /// The columns, in display order; never empty (the default is one `text` column).
    public var columns: [Column]
    /// The sections, in display order.
    public var sections: [Section]
    /// Shown in place of rows when the list has none.
    public var emptyText: String?
    /// Loading or error; `nil` means the list shows its content.
    public var state: ListState?
    /// A fixed row height in CSS pixels.
    public var rowHeight: Double?
    /// A row height hint in CSS pixels: rows render lazily with that intrinsic size.
    public var estimatedRowHeight: Double?

    public init(
        title: String,
        columns: [Column] = [Column.defaultColumn],
        sections: [Section] = [],
        emptyText: String? = nil,
        state: ListState? = nil,
        rowHeight: Double? = nil,
        estimatedRowHeight: Double? = nil
    ) {
        self.title = title
        self.columns = columns
        self.sections = sections
        self.emptyText = emptyText
        self.state = state
        self.rowHeight = rowHeight
        self.estimatedRowHeight = estimatedRowHeight
    }

    /// The number of rows in all sections.
    public var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }
}

/// A column of the table.
public struct Column: Sendable, Equatable {
    /// The name cells use for this column; unique in the list.
    public var key: String {
        didSet { packedKey = PackedKey(key) }
    }
    /// The column header's text.
    public var title: String
    /// What cells in this column hold and how they render.
    public var kind: ColumnKind
    /// `key` prepared for finding this column's cell in a row's packed cells.
    public private(set) var packedKey: PackedKey

    public init(key: String, title: String = "", kind: ColumnKind = .text) {
        self.key = key
        self.title = title
        self.kind = kind
        packedKey = PackedKey(key)
    }

    /// The column a list has when it declares none: `{"key": "text", "title": ""}`.
    public static let defaultColumn = Column(key: "text", title: "", kind: .text)
}

/// What a column's cells hold.
public enum ColumnKind: String, Sendable, Equatable, CaseIterable {
    /// A string.
    case text
    /// A number, right-aligned.
    case number
    /// `{"text", "href"}`.
    case link
    /// `{"src", "alt"}`, with optional `width` and `height`.
    case image
}

/// A keyed group of rows with an optional header and footer.
public struct Section: Sendable, Equatable {
    /// Unique among the list's sections.
    public var key: String
    public var header: String?
    public var footer: String?
    /// Whether the header toggles the section open and closed (an accordion).
    public var collapsible: Bool
    /// Whether a collapsible section starts closed.
    public var collapsed: Bool
    /// The rows, in chunks that versions of the list share (`ChunkedArray`).
    public var rows: ChunkedArray<Row>

    public init(
        key: String, header: String? = nil, footer: String? = nil,
        collapsible: Bool = false, collapsed: Bool = false, rows: ChunkedArray<Row> = []
    ) {
        self.key = key
        self.header = header
        self.footer = footer
        self.collapsible = collapsible
        self.collapsed = collapsed
        self.rows = rows
    }

    /// A section whose rows come from an array.
    @_disfavoredOverload
    public init(
        key: String, header: String? = nil, footer: String? = nil,
        collapsible: Bool = false, collapsed: Bool = false, rows: [Row]
    ) {
        self.init(
            key: key, header: header, footer: footer, collapsible: collapsible, collapsed: collapsed,
            rows: ChunkedArray(rows))
    }
}

/// A keyed row of cells.
public struct Row: Sendable, Equatable {
    /// Unique in the whole list, so a row keeps its identity when it moves between sections.
    public var key: String
    /// Cell values by column key; a column with no cell renders empty.
    public var cells: RowCells
    /// When set, the whole row is a link to this URL (the web form of onTap).
    public var href: String?
    public var style: RowStyle

    public init(key: String, cells: RowCells = [:], href: String? = nil, style: RowStyle = .default) {
        self.key = key
        self.cells = cells
        self.href = href
        self.style = style
    }

    /// A row whose cells come from a dictionary (ordered by key).
    @_disfavoredOverload
    public init(key: String, cells: [String: CellValue], href: String? = nil, style: RowStyle = .default) {
        self.init(key: key, cells: RowCells(cells), href: href, style: style)
    }
}

/// A cell's value; its case must match its column's kind.
public enum CellValue: Sendable, Equatable {
    case text(String)
    case number(Double)
    case link(text: String, href: String)
    case image(src: String, alt: String, width: Double? = nil, height: Double? = nil)

    /// The column kind this value fits.
    public var kind: ColumnKind {
        switch self {
        case .text: return .text
        case .number: return .number
        case .link: return .link
        case .image: return .image
        }
    }
}

/// How a row stands out.
public enum RowStyle: String, Sendable, Equatable, CaseIterable {
    case `default`
    case highlight
    case muted
}

/// A list that is not (yet) showing its content.
public enum ListState: Sendable, Equatable {
    case loading
    case error(message: String)
}
