import ListModel

/// Renders the content of a cell (what goes inside its `<td>`): the server-side twin of a custom
/// cell class.
///
/// Register one with `HTMLRenderer(cellRenderers:)` or `HTMLRenderer.registering(_:for:)`, keyed
/// by a column key or a column kind. Write through the `HTMLWriter`: `raw` takes only markup
/// written in source code, and `text`, `attribute` and `urlAttribute` escape what they are given.
///
/// ```swift
/// let stars = CellRenderer { value, _, out in
///     guard case .number(let n)? = value else { return }
///     out.raw("<span class=\"stars\"")
///     out.attribute("aria-label", "\(Int(n)) stars")
///     out.raw(">")
///     out.text(String(repeating: "★", count: Int(n)))
///     out.raw("</span>")
/// }
/// let renderer = HTMLRenderer().registering(stars, for: .column("rating"))
/// ```
public struct CellRenderer: Sendable {
    /// The class of the cell's `<td>` (and of the column's `<th>`), e.g. `"num"`; `nil` for none.
    public var cellClass: String?
    /// Whether the content may contain a link; the row's own link (`Row.href`) then goes in
    /// another cell, since links cannot nest.
    public var containsLinks: Bool
    /// Writes the cell's content; `value` is `nil` for a missing cell. May be called more than
    /// once for a cell: a large table renders a few sample rows first to size its buffer.
    public var render: @Sendable (_ value: CellValue?, _ column: Column, _ out: inout HTMLWriter) -> Void

    public init(
        cellClass: String? = nil,
        containsLinks: Bool = false,
        render: @escaping @Sendable (_ value: CellValue?, _ column: Column, _ out: inout HTMLWriter) -> Void
    ) {
        self.cellClass = cellClass
        self.containsLinks = containsLinks
        self.render = render
    }

    /// The built-in renderer of a column kind, e.g. to delegate to from a custom one.
    public static func builtIn(_ kind: ColumnKind) -> CellRenderer {
        CellRenderer(cellClass: kind == .number ? "num" : nil, containsLinks: kind == .link) { value, _, out in
            out.builtInCell(value)
        }
    }
}

/// What a custom `CellRenderer` is registered for. A column key wins over a kind.
public enum CellRendererKey: Hashable, Sendable {
    /// Every column of this kind.
    case kind(ColumnKind)
    /// The column with this key.
    case column(String)
}

extension HTMLWriter {
    /// Writes a cell value the way the built-in renderers do; the value decides, so a value of the
    /// wrong kind for its column still shows.
    ///
    /// - text: escaped text. number: `formatNumber`. link: `<a href>` (text only when the URL is
    ///   unsafe). image: `<img src alt loading="lazy" decoding="async">` with width and height when
    ///   known (the alt text only when the URL is unsafe).
    @inline(__always)
    mutating func builtInCell(_ value: CellValue?) {
        if let value { builtInCell(present: value) }
    }

    /// `builtInCell` for a present value.
    @inline(__always)
    mutating func builtInCell(present value: borrowing CellValue) {
        switch value {
        case .text(let string): text(string)
        case .number(let number): appendNumber(number)
        case .link(let label, let href): linkCell(label: label, href: href)
        case .image(let src, let alt, let width, let height): imageCell(src: src, alt: alt, width: width, height: height)
        }
    }

    /// `builtInCell` for a cell read in place: the same markup from the cell's bytes.
    @inline(__always)
    mutating func builtInCell(packed value: PackedValue) {
        switch value {
        case .text(let text): escapeBytes(text)
        case .number(let number): appendNumber(number)
        case .link(let label, let href): linkCell(label: label, href: href)
        case .image(let src, let alt, let width, let height): imageCell(src: src, alt: alt, width: width, height: height)
        }
    }

    /// A link cell: `<a href>`, or the label alone when the URL is unsafe.
    @inline(__always)
    private mutating func linkCell<Text: CellText>(label: Text, href: Text) {
        guard href.isSafeURL else { return label.escape(into: &self) }
        raw("<a href=\"")
        href.escape(into: &self)
        raw("\">")
        label.escape(into: &self)
        raw("</a>")
    }

    /// An image cell: `<img src alt loading="lazy" decoding="async">` with the dimensions known,
    /// or the alt text alone when the URL is unsafe.
    @inline(__always)
    private mutating func imageCell<Text: CellText>(src: Text, alt: Text, width: Double?, height: Double?) {
        guard src.isSafeURL else { return alt.escape(into: &self) }
        raw("<img src=\"")
        src.escape(into: &self)
        raw("\" alt=\"")
        alt.escape(into: &self)
        raw("\"")
        if let width { dimension("width", width) }
        if let height { dimension("height", height) }
        raw(" loading=\"lazy\" decoding=\"async\">")
    }

    /// Appends ` name="N"` for an image dimension: integers without a fraction, no grouping.
    private mutating func dimension(_ name: StaticString, _ value: Double) {
        guard value.isFinite, value > 0 else { return }
        byte(0x20)
        raw(name)
        raw("=\"")
        if value.rounded() == value, value < 1e9 {
            decimal(Int(value))
        } else {
            unsafeRaw(value.description)
        }
        raw("\"")
    }
}

/// A cell's string as the built-in renderers read it: a `CellValue`'s `String`, or a packed
/// cell's UTF-8 bytes read in place; the link and image markup is written once for both.
protocol CellText {
    /// `HTMLWriter.isSafeURL` of the text taken as a URL.
    var isSafeURL: Bool { get }
    /// Appends the text escaped.
    func escape(into out: inout HTMLWriter)
}

extension String: CellText {
    var isSafeURL: Bool { HTMLWriter.isSafeURL(self) }
    @inline(__always) func escape(into out: inout HTMLWriter) { out.escape(self) }
}

extension UnsafeBufferPointer<UInt8>: CellText {
    var isSafeURL: Bool { HTMLWriter.isSafeURL(utf8: self) }
    @inline(__always) func escape(into out: inout HTMLWriter) { out.escapeBytes(self) }
}
