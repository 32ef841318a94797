/// The columns and sections written in the body of `ListDocument("Title") { … }`.
public struct ListContent: Sendable, Equatable {
    public var columns: [Column]
    public var sections: [Section]

    public init(columns: [Column] = [], sections: [Section] = []) {
        self.columns = columns
        self.sections = sections
    }
}

/// Builds a list's columns and sections from `Column` and `Section` statements, with
/// `if`, `if`/`else`, `switch`, `for` and optionals.
@resultBuilder
public enum ListContentBuilder {
    public static func buildExpression(_ column: Column) -> ListContent { ListContent(columns: [column]) }
    public static func buildExpression(_ columns: [Column]) -> ListContent { ListContent(columns: columns) }
    public static func buildExpression(_ section: Section) -> ListContent { ListContent(sections: [section]) }
    public static func buildExpression(_ section: Section?) -> ListContent {
        ListContent(sections: section.map { [$0] } ?? [])
    }
    public static func buildExpression(_ sections: [Section]) -> ListContent { ListContent(sections: sections) }
    public static func buildExpression(_ content: ListContent) -> ListContent { content }

    public static func buildBlock(_ parts: ListContent...) -> ListContent { buildArray(parts) }
    public static func buildOptional(_ part: ListContent?) -> ListContent { part ?? ListContent() }
    public static func buildEither(first part: ListContent) -> ListContent { part }
    public static func buildEither(second part: ListContent) -> ListContent { part }
    public static func buildLimitedAvailability(_ part: ListContent) -> ListContent { part }
    public static func buildArray(_ parts: [ListContent]) -> ListContent {
        ListContent(columns: parts.flatMap(\.columns), sections: parts.flatMap(\.sections))
    }
}

extension ListDocument {
    /// A list written in Swift:
    ///
    /// ```swift
    /// let doc = ListDocument("Countries") {
    ///     Column.text("name", "Name")
    ///     Column.number("pop", "Population")
    ///     Section("eu", header: "Europe") {
    ///         Row("it") { Cell("name", "Italy"); Cell("pop", 58.9) }
    ///         for country in countries { country }   // ListRowConvertible models
    ///     }
    /// }
    /// ```
    ///
    /// Without `Column` statements the list has the default `text` column. The result is
    /// not validated: call `validated()` to check keys, URLs and limits.
    public init(
        _ title: String,
        emptyText: String? = nil,
        state: ListState? = nil,
        rowHeight: Double? = nil,
        estimatedRowHeight: Double? = nil,
        @ListContentBuilder content: () -> ListContent
    ) {
        let content = content()
        self.init(
            title: title,
            columns: content.columns.isEmpty ? [Column.defaultColumn] : content.columns,
            sections: content.sections,
            emptyText: emptyText,
            state: state,
            rowHeight: rowHeight,
            estimatedRowHeight: estimatedRowHeight
        )
    }
}

extension Column {
    /// A text column.
    public static func text(_ key: String, _ title: String = "") -> Column { Column(key: key, title: title, kind: .text) }
    /// A number column (right-aligned).
    public static func number(_ key: String, _ title: String = "") -> Column {
        Column(key: key, title: title, kind: .number)
    }
    /// A link column: cells are `Cell(key, link:href:)`.
    public static func link(_ key: String, _ title: String = "") -> Column { Column(key: key, title: title, kind: .link) }
    /// An image column: cells are `Cell(key, image:alt:)`.
    public static func image(_ key: String, _ title: String = "") -> Column {
        Column(key: key, title: title, kind: .image)
    }
}
