/// A typed model that becomes a row of a list: give it a key and its cells.
///
/// ```swift
/// struct Country: ListRowConvertible {
///     var code: String, name: String, population: Double?
///     var rowKey: String { code }
///     var cells: [Cell] {
///         Cell("name", name)
///         Cell("pop", population)        // nil: an empty cell
///     }
///     var rowHref: String? { "/countries/\(code)" }
/// }
/// ```
///
/// Inside `Section(…) { … }` a model, an array of models or `for model in models { model }`
/// each add rows.
public protocol ListRowConvertible {
    /// The row's key: unique in the whole list.
    var rowKey: String { get }
    /// The row's cells; a cell named twice keeps the last value.
    @CellsBuilder var cells: [Cell] { get }
    /// The link of the whole row; `nil` (the default) for none.
    var rowHref: String? { get }
    /// How the row stands out; `.default` unless given.
    var rowStyle: RowStyle { get }
}

extension ListRowConvertible {
    public var rowHref: String? { nil }
    public var rowStyle: RowStyle { .default }

    /// The model as a row.
    public var listRow: Row { Row(rowKey, href: rowHref, style: rowStyle, cells: cells) }
}

/// Builds a section's rows from `Row` statements and `ListRowConvertible` models, with
/// `if`, `if`/`else`, `switch`, `for` and optionals.
@resultBuilder
public enum RowsBuilder {
    public static func buildExpression(_ row: Row) -> [Row] { [row] }
    public static func buildExpression(_ row: Row?) -> [Row] { row.map { [$0] } ?? [] }
    public static func buildExpression(_ rows: [Row]) -> [Row] { rows }
    public static func buildExpression<Model: ListRowConvertible>(_ model: Model) -> [Row] { [model.listRow] }
    public static func buildExpression<Model: ListRowConvertible>(_ model: Model?) -> [Row] {
        model.map { [$0.listRow] } ?? []
    }
    public static func buildExpression<Models: Sequence>(_ models: Models) -> [Row]
    where Models.Element: ListRowConvertible {
        models.map(\.listRow)
    }

    public static func buildBlock(_ parts: [Row]...) -> [Row] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Row]?) -> [Row] { part ?? [] }
    public static func buildEither(first part: [Row]) -> [Row] { part }
    public static func buildEither(second part: [Row]) -> [Row] { part }
    public static func buildLimitedAvailability(_ part: [Row]) -> [Row] { part }
    public static func buildArray(_ parts: [[Row]]) -> [Row] { parts.flatMap { $0 } }
}

extension Section {
    /// A section written in Swift: `Section("eu", header: "Europe") { Row(…); … }`.
    public init(
        _ key: String,
        header: String? = nil,
        footer: String? = nil,
        collapsible: Bool = false,
        collapsed: Bool = false,
        @RowsBuilder rows: () -> [Row] = { [] }
    ) {
        self.init(
            key: key, header: header, footer: footer, collapsible: collapsible, collapsed: collapsed,
            rows: ChunkedArray(rows()))
    }
}
