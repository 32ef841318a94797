/// One cell of a row written in Swift: the column it belongs to and its value.
///
/// A `nil` value is an empty cell (it is left out of the row).
public struct Cell: Sendable, Equatable {
    /// The key of the cell's column.
    public var column: String
    public var value: CellValue?

    /// A cell of any kind.
    public init(_ column: String, _ value: CellValue?) {
        self.column = column
        self.value = value
    }

    /// A text cell.
    public init(_ column: String, _ text: String?) { self.init(column, text.map(CellValue.text)) }

    /// A number cell.
    public init(_ column: String, _ number: Double?) { self.init(column, number.map(CellValue.number)) }

    /// A number cell from an integer.
    public init(_ column: String, _ number: Int?) { self.init(column, number.map { CellValue.number(Double($0)) }) }

    /// A link cell.
    public init(_ column: String, link text: String, href: String) {
        self.init(column, CellValue.link(text: text, href: href))
    }

    /// An image cell.
    public init(_ column: String, image src: String, alt: String = "", width: Double? = nil, height: Double? = nil) {
        self.init(column, CellValue.image(src: src, alt: alt, width: width, height: height))
    }
}

/// Builds a row's cells from `Cell` statements, with `if`, `if`/`else`, `switch`, `for`
/// and optionals.
@resultBuilder
public enum CellsBuilder {
    public static func buildExpression(_ cell: Cell) -> [Cell] { [cell] }
    public static func buildExpression(_ cell: Cell?) -> [Cell] { cell.map { [$0] } ?? [] }
    public static func buildExpression(_ cells: [Cell]) -> [Cell] { cells }

    public static func buildBlock(_ parts: [Cell]...) -> [Cell] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Cell]?) -> [Cell] { part ?? [] }
    public static func buildEither(first part: [Cell]) -> [Cell] { part }
    public static func buildEither(second part: [Cell]) -> [Cell] { part }
    public static func buildLimitedAvailability(_ part: [Cell]) -> [Cell] { part }
    public static func buildArray(_ parts: [[Cell]]) -> [Cell] { parts.flatMap { $0 } }
}

extension Row {
    /// A row written in Swift: `Row("it", href: "/it") { Cell("name", "Italy"); Cell("pop", 58.9) }`.
    ///
    /// A column named by two cells keeps the last value; `nil` cells are left out.
    public init(
        _ key: String,
        href: String? = nil,
        style: RowStyle = .default,
        @CellsBuilder cells: () -> [Cell] = { [] }
    ) {
        self.init(key, href: href, style: style, cells: cells())
    }

    init(_ key: String, href: String?, style: RowStyle, cells: [Cell]) {
        var values: [String: CellValue] = [:]
        for cell in cells { values[cell.column] = cell.value }
        self.init(key: key, cells: values, href: href, style: style)
    }
}
