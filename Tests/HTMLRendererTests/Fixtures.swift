import ListModel

/// Documents the tests render.
enum Fixtures {
    static let columns = [
        Column(key: "name", title: "Name"),
        Column(key: "pop", title: "Population", kind: .number),
        Column(key: "flag", title: "Flag", kind: .image),
        Column(key: "wiki", title: "More", kind: .link),
    ]

    /// The API.md example, grown to two sections.
    static let countries = ListDocument(
        title: "Countries",
        columns: columns,
        sections: [
            Section(
                key: "eu", header: "Europe", footer: "3 countries",
                rows: [
                    Row(
                        key: "it",
                        cells: [
                            "name": .text("Italy"), "pop": .number(58_900_000),
                            "flag": .image(src: "/img/it.png", alt: "Italian flag", width: 32, height: 24),
                            "wiki": .link(text: "Wikipedia", href: "https://en.wikipedia.org/wiki/Italy"),
                        ]),
                    Row(key: "fr", cells: ["name": .text("France"), "pop": .number(68.2)], href: "/countries/fr"),
                    Row(key: "de", cells: ["name": .text("Germany"), "pop": .number(-1234.5)], style: .highlight),
                ]),
            Section(
                key: "as", header: "Asia",
                rows: [
                    Row(key: "jp", cells: ["name": .text("Japan"), "flag": .image(src: "/img/jp.png", alt: "")], style: .muted),
                    Row(key: "in", cells: ["pop": .number(1_428_627_663)], href: "/countries/in"),
                ]),
        ])

    /// `rows` rows in each of `sections` sections, one text column; with `collapsible`, section 1 starts collapsed.
    static func numbered(sections: Int, rows: Int, collapsible: Bool = false) -> ListDocument {
        ListDocument(
            title: "Numbered",
            sections: (0..<sections).map { s in
                Section(
                    key: "s\(s)", header: "Section \(s)", footer: "End of section \(s)",
                    collapsible: collapsible, collapsed: collapsible && s == 1,
                    rows: (0..<rows).map { r in Row(key: "r\(s)-\(r)", cells: ["text": .text("Row \(s).\(r)")]) })
            })
    }
}
