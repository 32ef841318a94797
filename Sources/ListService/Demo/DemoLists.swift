import ListModel

/// The lists `--demo` loads into an empty store: one per feature worth showing.
package enum DemoLists {
    package static var all: [(id: String, document: ListDocument)] {
        [
            ("countries", countries),
            ("tasks", tasks),
            ("inbox", ListDocument(title: "Inbox", emptyText: "Nothing here yet. PUT some rows to fill it.")),
            (
                "status-error",
                ListDocument(title: "Deploys", state: .error(message: "The deploy service did not answer. Retrying in a minute."))
            ),
            ("status-loading", ListDocument(title: "Reports", state: .loading)),
            ("numbers", numbers),
        ]
    }

    /// Creates every demo list that does not exist yet (several instances sharing one store may
    /// all start with `--demo`; none overwrites a list another made).
    package static func load(into registry: ListRegistry) throws {
        for (id, document) in all {
            do {
                try registry.write(id: id, precondition: WritePrecondition(ifNoneMatch: .any), mayCreate: true) { _ in
                    try document.validated()
                }
            } catch RegistryError.preconditionFailed {
                continue
            }
        }
    }

    /// Sections with headers and footers, every column kind, row links and styles.
    package static var countries: ListDocument {
        func country(_ key: String, _ name: String, _ population: Double, flag: Bool = true, style: RowStyle = .default) -> Row {
            var cells: [String: CellValue] = [
                "name": .text(name),
                "pop": .number(population),
                "wiki": .link(text: "Wikipedia", href: "https://en.wikipedia.org/wiki/\(name.replacingSpaces)"),
            ]
            if flag { cells["flag"] = .image(src: "/assets/demo/\(key).svg", alt: "Flag of \(name)", width: 30, height: 20) }
            return Row(key: key, cells: cells, href: "https://en.wikipedia.org/wiki/\(name.replacingSpaces)", style: style)
        }
        return ListDocument(
            title: "Countries",
            columns: [
                Column(key: "name", title: "Name"),
                Column(key: "pop", title: "Population (millions)", kind: .number),
                Column(key: "flag", title: "Flag", kind: .image),
                Column(key: "wiki", title: "More", kind: .link),
            ],
            sections: [
                Section(
                    key: "eu-west", header: "Western Europe", footer: "3 countries",
                    rows: [
                        country("fr", "France", 68.2),
                        country("ie", "Ireland", 5.3),
                        country("nl", "Netherlands", 17.9, style: .highlight),
                    ]),
                Section(
                    key: "eu-central", header: "Central Europe", footer: "2 countries",
                    rows: [
                        country("de", "Germany", 84.5),
                        country("it", "Italy", 58.9),
                    ]),
                Section(
                    key: "elsewhere", header: "Elsewhere", footer: "No flags here yet",
                    rows: [
                        country("jp", "Japan", 124.5, flag: false, style: .muted),
                        country("br", "Brazil", 203.1, flag: false, style: .muted),
                    ]),
            ])
    }

    /// Collapsible sections (an accordion) and row styles.
    package static var tasks: ListDocument {
        let columns = [Column(key: "task", title: "Task"), Column(key: "due", title: "Due")]
        func task(_ key: String, _ text: String, _ due: String, _ style: RowStyle = .default) -> Row {
            Row(key: key, cells: ["task": .text(text), "due": .text(due)], style: style)
        }
        return ListDocument(
            title: "Tasks", columns: columns,
            sections: [
                Section(
                    key: "today", header: "Today", footer: nil, collapsible: true,
                    rows: [
                        task("t1", "Review the <table> markup & escaping", "09:00", .highlight),
                        task("t2", "Write the release notes", "14:00"),
                    ]),
                Section(
                    key: "later", header: "Later", collapsible: true, collapsed: true,
                    rows: [
                        task("t3", "Plan the PostgreSQL store", "next week"),
                        task("t4", "Try 100,000 subscribers", "someday"),
                    ]),
                Section(
                    key: "done", header: "Done", footer: "Well done", collapsible: true, collapsed: true,
                    rows: [
                        task("t5", "Ship tail loading", "yesterday", .muted)
                    ]),
            ], estimatedRowHeight: 40)
    }

    /// 10,000 rows in 10 sections, for tail loading.
    package static var numbers: ListDocument {
        let columns = [
            Column(key: "n", title: "n", kind: .number),
            Column(key: "square", title: "n²", kind: .number),
            Column(key: "words", title: "In words"),
        ]
        let sections = (0..<10).map { block in
            let (first, last) = (CellValue.formattedNumber(Double(block * 1000 + 1)), CellValue.formattedNumber(Double((block + 1) * 1000)))
            return Section(
                key: "block-\(block)",
                header: "\(first) to \(last)",
                footer: "End of block \(block + 1)",
                rows: (1...1000).map { offset in
                    let n = block * 1000 + offset
                    return Row(
                        key: "n\(n)",
                        cells: [
                            "n": .number(Double(n)), "square": .number(Double(n * n)), "words": .text(words(n)),
                        ])
                })
        }
        return ListDocument(title: "Ten thousand numbers", columns: columns, sections: sections, estimatedRowHeight: 36)
    }

    /// English words for 1…10,000 ("one thousand two hundred thirty-four").
    package static func words(_ n: Int) -> String {
        let ones = [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
            "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
        ]
        let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
        func below100(_ n: Int) -> String {
            n < 20 ? ones[n] : tens[n / 10] + (n % 10 == 0 ? "" : "-" + ones[n % 10])
        }
        func below1000(_ n: Int) -> String {
            let hundreds = n / 100, rest = n % 100
            if hundreds == 0 { return below100(rest) }
            return ones[hundreds] + " hundred" + (rest == 0 ? "" : " " + below100(rest))
        }
        let thousands = n / 1000, rest = n % 1000
        if thousands == 0 { return below1000(rest) }
        return below1000(thousands) + " thousand" + (rest == 0 ? "" : " " + below1000(rest))
    }
}

private extension String {
    var replacingSpaces: String { split(separator: " ").joined(separator: "_") }
}
