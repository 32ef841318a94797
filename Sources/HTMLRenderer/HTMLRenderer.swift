import ListModel

/// Turns list documents, pages and rows into escaped UTF-8 HTML (API.md section 3).
///
/// No I/O and no templates: every function writes bytes into one reserved buffer. The table,
/// the page, tail-loading fragments and the live view's rows are all built from the same
/// `row(_:in:)`, `sectionHeaderRow(_:in:)` and `sectionFooterRow(_:in:)`, so the markup a
/// live update sends is byte for byte the markup the page held. docs/HTML.md describes the
/// markup, classes and the rules for numbers, URLs and escaping.
public struct HTMLRenderer: Sendable {
    /// Custom cell renderers by column key or kind.
    public var cellRenderers: [CellRendererKey: CellRenderer]

    /// Creates a renderer; `cellRenderers` replace the built-in rendering of the columns they name.
    public init(cellRenderers: [CellRendererKey: CellRenderer] = [:]) {
        self.cellRenderers = cellRenderers
    }

    /// A copy of this renderer that renders the cells `key` names with `renderer`.
    public func registering(_ renderer: CellRenderer, for key: CellRendererKey) -> HTMLRenderer {
        var copy = self
        copy.cellRenderers[key] = renderer
        return copy
    }

    /// `string` as a browser reads it back from this renderer's markup (a `data-row` key, the
    /// caption): U+0000 becomes U+FFFD, everything else survives. A live view document that
    /// carries keys or titles as plain strings should pass them through this.
    public static func asParsed(_ string: String) -> String {
        guard string.utf8.contains(0) else { return string }
        return String(string.unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : Character($0) })
    }

    /// The `id` of a section's `<tbody>`, which a collapsible header's `aria-controls` names:
    /// `list-section-` followed by the key with `%`, ASCII whitespace and controls percent-encoded
    /// (ids may hold any other character, and the encoding keeps distinct keys distinct).
    public static func sectionElementID(_ sectionKey: String) -> String {
        var id: [UInt8] = Array("list-section-".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in sectionKey.utf8 {
            if byte <= 0x20 || byte == 0x25 || byte == 0x7F {
                id += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            } else {
                id.append(byte)
            }
        }
        return String(decoding: id, as: UTF8.self)
    }
}

/// What the row loop does for a column: a trivial value, so reading it costs no reference counting.
enum CellPlan {
    /// The built-in rendering in a plain `<td>`.
    case plain
    /// The built-in rendering in `<td class="num">`.
    case number
    /// `ResolvedColumns.customs[index]`.
    case custom
}

/// The columns of a document as the renderer uses them, resolved once per call rather than
/// once per cell. Cheap to build when no custom renderer is registered (one small array).
struct ResolvedColumns {
    /// The document's columns (the same array storage, not a copy).
    let columns: [Column]
    /// One plan per column.
    let plans: [CellPlan]
    /// The custom renderer of each column; empty when no column has one.
    let customs: [CellRenderer?]
    /// The column whose cell holds a linked row's `<a class="row-link">`: the first that has no
    /// links of its own, else the first.
    let rowLinkColumn: Int

    init(_ doc: ListDocument, renderers: [CellRendererKey: CellRenderer]) {
        columns = doc.columns
        if renderers.isEmpty {
            customs = []
            plans = doc.columns.map { $0.kind == .number ? .number : .plain }
            rowLinkColumn = doc.columns.firstIndex { $0.kind != .link } ?? 0
        } else {
            let customs = doc.columns.map { renderers[.column($0.key)] ?? renderers[.kind($0.kind)] }
            self.customs = customs
            plans = doc.columns.indices.map {
                customs[$0] != nil ? .custom : doc.columns[$0].kind == .number ? .number : .plain
            }
            rowLinkColumn =
                doc.columns.indices.first { customs[$0].map { !$0.containsLinks } ?? (doc.columns[$0].kind != .link) } ?? 0
        }
    }

    var count: Int { columns.count }

    /// The class of the column's cells and header, if any.
    func cellClass(_ index: Int) -> String? {
        switch plans[index] {
        case .plain: return nil
        case .number: return "num"
        case .custom: return customs[index]!.cellClass
        }
    }
}
