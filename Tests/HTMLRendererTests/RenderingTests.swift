import HTMLRenderer
import ListModel
import Testing

@Suite struct RenderingTests {
    let renderer = HTMLRenderer()

    @Test func tableFollowsTheContractMarkup() {
        let html = string(renderer.table(Fixtures.countries))
        #expect(html.hasPrefix("<table class=\"list\">\n<caption>Countries</caption>\n"))
        #expect(html.contains("<thead><tr><th scope=\"col\">Name</th><th scope=\"col\" class=\"num\">Population</th>"))
        #expect(
            html.contains("<tbody data-section=\"eu\">\n<tr class=\"section-header\"><th scope=\"rowgroup\" colspan=\"4\">Europe</th></tr>")
        )
        #expect(html.contains("<tr class=\"section-footer\"><td colspan=\"4\">3 countries</td></tr>\n</tbody>"))
        #expect(html.contains("<tr data-row=\"it\"><td>Italy</td><td class=\"num\">58,900,000</td>"))
        #expect(!html.contains("pagination"))
        #expect(html.hasSuffix("</table>\n"))
    }

    @Test func everyColumnKindRenders() {
        let html = string(renderer.row(Fixtures.countries.sections[0].rows[0], in: Fixtures.countries))
        #expect(
            html == """
                <tr data-row="it"><td>Italy</td><td class="num">58,900,000</td>\
                <td><img src="/img/it.png" alt="Italian flag" width="32" height="24" loading="lazy" decoding="async"></td>\
                <td><a href="https://en.wikipedia.org/wiki/Italy">Wikipedia</a></td></tr>
                """)
    }

    @Test func missingCellsAreEmpty() {
        let row = Row(key: "x")
        #expect(
            string(renderer.row(row, in: Fixtures.countries))
                == "<tr data-row=\"x\"><td></td><td class=\"num\"></td><td></td><td></td></tr>")
    }

    @Test(
        arguments: [
            (0.0, "0"), (-0.0, "0"), (7, "7"), (999, "999"), (1000, "1,000"), (-1234567, "-1,234,567"),
            (1234567.89, "1,234,567.89"), (58.9, "58.9"), (0.1, "0.1"), (-0.5, "-0.5"),
            (1e-5, "1e-05"), (1e20, "1e+20"), (9_007_199_254_740_991, "9,007,199,254,740,991"),
        ] as [(Double, String)])
    func numbersAreFormattedLocaleIndependently(value: Double, expected: String) {
        #expect(HTMLWriter.formatNumber(value) == expected)
    }

    @Test func linkedRowWrapsFirstCellInARealLink() {
        let doc = Fixtures.countries
        let html = string(renderer.row(doc.sections[0].rows[1], in: doc))
        #expect(html.hasPrefix("<tr data-row=\"fr\" class=\"linked\"><td><a class=\"row-link\" href=\"/countries/fr\">France</a></td>"))
        let empty = string(renderer.row(Row(key: "e", href: "/e"), in: doc))
        #expect(empty.contains("<a class=\"row-link\" href=\"/e\"><span class=\"visually-hidden\">Open</span></a>"))
    }

    @Test func rowLinkAvoidsCellsThatHoldLinks() {
        let doc = ListDocument(title: "L", columns: [Column(key: "l", kind: .link), Column(key: "t")])
        let html = string(renderer.row(Row(key: "r", cells: ["l": .link(text: "a", href: "/a"), "t": .text("b")], href: "/r"), in: doc))
        #expect(
            html == "<tr data-row=\"r\" class=\"linked\"><td><a href=\"/a\">a</a></td><td><a class=\"row-link\" href=\"/r\">b</a></td></tr>"
        )
    }

    @Test func rowStylesBecomeClasses() {
        let doc = Fixtures.countries
        #expect(string(renderer.row(doc.sections[0].rows[2], in: doc)).hasPrefix("<tr data-row=\"de\" class=\"row-highlight\">"))
        #expect(string(renderer.row(doc.sections[1].rows[0], in: doc)).hasPrefix("<tr data-row=\"jp\" class=\"row-muted\">"))
        let both = Row(key: "m", href: "/m", style: .muted)
        #expect(string(renderer.row(both, in: doc)).hasPrefix("<tr data-row=\"m\" class=\"row-muted linked\">"))
    }

    @Test func sectionRowsAreTheOnesTheTableUses() throws {
        let doc = Fixtures.countries
        let table = string(renderer.table(doc))
        let header = try #require(renderer.sectionHeaderRow(doc.sections[0], in: doc))
        let footer = try #require(renderer.sectionFooterRow(doc.sections[0], in: doc))
        #expect(table.contains(string(header) + "\n"))
        #expect(table.contains(string(footer) + "\n"))
        for section in doc.sections {
            for row in section.rows { #expect(table.contains(string(renderer.row(row, in: doc)) + "\n")) }
        }
        #expect(renderer.sectionFooterRow(doc.sections[1], in: doc) == nil)
        #expect(renderer.sectionHeaderRow(Section(key: "none"), in: doc) == nil)
    }

    @Test func collapsibleHeaderControlsItsSection() throws {
        let doc = Fixtures.numbered(sections: 2, rows: 1, collapsible: true)
        let open = string(try #require(renderer.sectionHeaderRow(doc.sections[0], in: doc)))
        #expect(
            open.contains(
                "<button type=\"button\" class=\"section-toggle\" aria-expanded=\"true\" aria-controls=\"list-section-s0\">Section 0</button>"
            ))
        let closed = string(try #require(renderer.sectionHeaderRow(doc.sections[1], in: doc)))
        #expect(closed.contains("aria-expanded=\"false\""))
        let table = string(renderer.table(doc))
        #expect(table.contains("<tbody data-section=\"s1\" id=\"list-section-s1\" class=\"collapsible collapsed\">"))
        #expect(table.contains("<tr data-row=\"r1-0\">"), "collapsed rows stay in the HTML")
    }

    @Test func sectionIDsStayDistinctAndValid() {
        #expect(HTMLRenderer.sectionElementID("a b") == "list-section-a%20b")
        #expect(HTMLRenderer.sectionElementID("a%20b") == "list-section-a%2520b")
        #expect(HTMLRenderer.sectionElementID("a\nb") == "list-section-a%0Ab")
    }

    @Test func loadingAndErrorReplaceTheRows() {
        var doc = Fixtures.countries
        doc.state = .loading
        let loading = string(renderer.table(doc))
        #expect(loading.hasPrefix("<table class=\"list\" aria-busy=\"true\">"))
        #expect(loading.contains("<span role=\"status\">Loading…</span>"))
        #expect(!loading.contains("data-row"))
        doc.state = .error(message: "Upstream <down>")
        let error = string(renderer.table(doc))
        #expect(
            error.contains(
                "<tbody class=\"status state-error\"><tr><td colspan=\"4\"><div role=\"alert\">Upstream &lt;down&gt;</div></td></tr></tbody>"
            ))
        #expect(!error.contains("aria-busy"))
        #expect(!error.contains("data-section"))
    }

    @Test func parsedFormReplacesOnlyNUL() {
        #expect(HTMLRenderer.asParsed("a\u{0}b\r\n") == "a\u{FFFD}b\r\n")
        #expect(HTMLRenderer.asParsed("plain") == "plain")
        let row = string(renderer.row(Row(key: "k\u{0}"), in: ListDocument(title: "")))
        #expect(row.hasPrefix("<tr data-row=\"\(HTMLRenderer.asParsed("k\u{0}"))\">"))
    }

    @Test func liveViewPiecesMatchThePage() throws {
        var doc = Fixtures.countries
        let head = string(renderer.headRow(doc))
        #expect(
            head
                == "<tr><th scope=\"col\">Name</th><th scope=\"col\" class=\"num\">Population</th><th scope=\"col\">Flag</th><th scope=\"col\">More</th></tr>"
        )
        #expect(string(renderer.table(doc)).contains("<thead>" + head + "</thead>\n"))
        #expect(renderer.statusBody(doc) == nil)
        doc.state = .error(message: "x")
        let status = string(try #require(renderer.statusBody(doc)))
        #expect(status.hasPrefix("<tbody class=\"status state-error\">") && status.hasSuffix("</tbody>"))
        #expect(string(renderer.table(doc)).contains(status + "\n"))
        let empty = ListDocument(title: "E", emptyText: "None")
        #expect(renderer.statusBody(empty).map(string) == "<tbody class=\"status empty\"><tr><td colspan=\"1\">None</td></tr></tbody>")
        #expect(renderer.statusBody(ListDocument(title: "E")) == nil)
    }

    @Test func emptyTextShowsOnlyWithoutRows() {
        var doc = ListDocument(title: "Empty", sections: [Section(key: "a", header: "A")], emptyText: "Nothing here")
        #expect(string(renderer.table(doc)).contains("<tbody class=\"status empty\"><tr><td colspan=\"1\">Nothing here</td></tr></tbody>"))
        doc.sections[0].rows = [Row(key: "r")]
        #expect(!string(renderer.table(doc)).contains("Nothing here"))
    }

    @Test func rowHeightsBecomeClassesAndDataAttributes() {
        var doc = Fixtures.numbered(sections: 1, rows: 1)
        doc.rowHeight = 44
        doc.estimatedRowHeight = 60.5
        let html = string(renderer.table(doc))
        #expect(html.hasPrefix("<table class=\"list fixed-rows lazy-rows\" data-row-height=\"44\" data-estimated-row-height=\"60.5\">"))
        #expect(!html.contains("style="))
    }

    @Test func customRendererByColumnWinsOverKind() {
        let stars = CellRenderer(cellClass: "stars") { value, _, out in
            guard case .number(let n)? = value else { return }
            out.raw("<span")
            out.attribute("aria-label", "\(Int(n)) stars")
            out.raw(">")
            out.text(String(repeating: "★", count: Int(n)))
            out.raw("</span>")
        }
        let upper = CellRenderer { value, _, out in
            if case .text(let s)? = value { out.text(s.uppercased()) }
        }
        let doc = ListDocument(
            title: "R", columns: [Column(key: "t"), Column(key: "rating", kind: .number), Column(key: "n", kind: .number)])
        let renderer = HTMLRenderer(cellRenderers: [.kind(.text): upper]).registering(stars, for: .column("rating"))
        let row = Row(key: "r", cells: ["t": .text("a<b"), "rating": .number(3), "n": .number(3000)])
        #expect(
            string(renderer.row(row, in: doc)) == """
                <tr data-row="r"><td>A&lt;B</td><td class="stars"><span aria-label="3 stars">★★★</span></td><td class="num">3,000</td></tr>
                """)
        #expect(string(renderer.table(doc)).contains("<th scope=\"col\" class=\"stars\">rating</th>"))  // untitled: its key
    }
}
