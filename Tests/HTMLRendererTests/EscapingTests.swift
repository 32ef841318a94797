import HTMLRenderer
import ListModel
import Testing

/// Hostile strings in every place a document puts text into the HTML; all must render inert.
@Suite struct EscapingTests {
    let renderer = HTMLRenderer()

    static let hostile = [
        "<script>alert(1)</script>",
        "\"><img src=x onerror=alert(1)>",
        "' onmouseover='alert(1)",
        "</textarea><script>alert(1)</script>",
        "</title><script>alert(1)</script>",
        "<!-- --><svg onload=alert(1)>",
        "a&b&amp;c&#x3C;",
        "line\nbreak\r\nand\rcr",
        "nul\u{0}byte",
        "\u{2028}separators\u{2029}",
        "\u{FFFD}\u{1F600}e\u{301}",
    ]

    static let scriptURLs = [
        "javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "\u{1}javascript:alert(1)",
        "java\tscript:alert(1)", "java\nscript:alert(1)", "java\r\nscript:alert(1)", "javascript\t:alert(1)",
        "vbscript:msgbox(1)", "data:text/html,<script>alert(1)</script>", "  \u{C}JAVASCRIPT:alert(1)",
    ]

    /// Every key, text and URL of a document set to `text`.
    func document(with text: String, url: String) -> ListDocument {
        ListDocument(
            title: text,
            columns: [
                Column(key: text, title: text), Column(key: "n", title: text, kind: .number),
                Column(key: "l", title: text, kind: .link), Column(key: "i", title: text, kind: .image),
            ],
            sections: [
                Section(
                    key: text, header: text, footer: text, collapsible: true,
                    rows: [
                        Row(
                            key: text,
                            cells: [
                                text: .text(text), "n": .number(1), "l": .link(text: text, href: url),
                                "i": .image(src: url, alt: text),
                            ], href: url)
                    ])
            ],
            emptyText: text)
    }

    /// No markup from the hostile strings survives: no tag, comment or attribute they tried to open,
    /// and no raw NUL, CR or line separator.
    func assertInert(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let needles = [
            "<script>", "<img src=x", "<svg", "</textarea>", "</title><", "<!--", "' onmouseover", "\" onmouseover",
            "\u{0}", "\r", "\u{2028}", "\u{2029}", "&#x3C;", "a&b", "b&amp;c",
        ]
        #expect(html.components(separatedBy: "<script").count <= 2, "only the page's own script tag", sourceLocation: sourceLocation)
        for needle in needles {
            #expect(!html.contains(needle), "found \(needle.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: hostile)
    func hostileTextIsEscapedEverywhere(text: String) {
        let doc = document(with: text, url: "/safe")
        let page = string(
            renderer.page(
                doc, page: ListPage(parts: [.init(sectionIndex: 0, rows: 0..<1)], next: nil),
                context: PageContext(listID: text, version: 1, nextHref: "/next?" + text, cursor: text)))
        assertInert(page)
        assertInert(string(renderer.table(doc)))
        assertInert(string(renderer.fragment(doc, page: ListPage(parts: [.init(sectionIndex: 0, rows: 0..<1)], next: nil), nextHref: text)))
        assertInert(string(renderer.indexPage([ListSummary(id: text, title: text, rows: 1, version: 1)])))
    }

    @Test func quotesCannotLeaveAttributes() {
        let doc = document(with: "\"' x=\"y", url: "/a\"b'c")
        let row = string(renderer.row(doc.sections[0].rows[0], in: doc))
        #expect(row.hasPrefix("<tr data-row=\"&quot;&#39; x=&quot;y\" class=\"linked\">"))
        #expect(row.contains("href=\"/a&quot;b&#39;c\""))
        #expect(row.contains("alt=\"&quot;&#39; x=&quot;y\""))
    }

    @Test func controlCharactersInKeysSurviveTheParser() {
        let doc = document(with: "a\r\nb\u{0}c", url: "/")
        let row = string(renderer.row(doc.sections[0].rows[0], in: doc))
        #expect(row.hasPrefix("<tr data-row=\"a&#13;\nb\u{FFFD}c\""))
    }

    @Test func separatorsBecomeReferences() {
        #expect(
            string(renderer.row(Row(key: "\u{2028}x\u{2029}"), in: ListDocument(title: ""))).hasPrefix(
                "<tr data-row=\"&#x2028;x&#x2029;\">"))
    }

    @Test func entityLookalikesAreNotDecoded() {
        let html = string(renderer.table(document(with: "&lt;b&gt; &#60;", url: "/")))
        #expect(html.contains("&amp;lt;b&amp;gt; &amp;#60;"))
    }

    @Test func nonASCIITextIsCopiedUnchanged() {
        let text = "Zürich 東京 \u{1F600} e\u{301} \u{E2}"
        let html = string(renderer.row(Row(key: "k", cells: ["text": .text(text)]), in: ListDocument(title: "")))
        #expect(html == "<tr data-row=\"k\"><td>\(text)</td></tr>")
    }

    @Test(arguments: scriptURLs)
    func scriptURLsAreNeverLinked(url: String) {
        #expect(!HTMLWriter.isSafeURL(url))
        let doc = document(with: "x", url: url)
        let html = string(renderer.table(doc))
        #expect(!html.lowercased().contains("script:"))
        #expect(!html.contains("data:"))
        #expect(!html.contains("href=\"") || !html.contains("row-link"), "no row link")
        #expect(!html.contains("<img"))
        #expect(!html.contains("<a href"))
        #expect(html.contains("<td>x</td>"), "the link's text still shows")
    }

    @Test(arguments: [
        "https://example.com/a?b=c&d", "HTTP://EXAMPLE.COM", "mailto:a@example.com", "/relative", "relative/path",
        "?q=1", "#frag", "//example.com/x", "javascript%3Aalert(1)", "&#106;avascript:alert(1)", "1javascript:x", "./javascript:x",
    ])
    func ordinaryURLsAreKept(url: String) {
        #expect(HTMLWriter.isSafeURL(url))
        let html = string(
            renderer.row(
                Row(key: "r", cells: ["l": .link(text: "t", href: url)]),
                in: ListDocument(title: "", columns: [Column(key: "l", kind: .link)])))
        #expect(html.contains("<a href=\""))
        #expect(!html.contains("&#106;"), "an ampersand in a URL is escaped, never passed through")
    }
}

/// The fast escaper against a one-character-at-a-time reference, over sizes that cross the
/// writer's buffer growth.
@Suite struct EscapingReferenceTests {
    /// The escaping docs/HTML.md specifies, written the slow obvious way.
    static func reference(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\r": out += "&#13;"
            case "\u{0}": out += "\u{FFFD}"
            case "\u{2028}": out += "&#x2028;"
            case "\u{2029}": out += "&#x2029;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    @Test func randomTextMatchesTheReference() {
        let alphabet: [Character] = [
            "a", "Z", " ", "&", "<", ">", "\"", "'", "\r", "\n", "\u{0}", "\u{2028}", "\u{2029}", "\u{2027}", "é", "東", "\u{1F600}",
            "\u{E2}",
        ]
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1_000, 70_000] {
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            let row = Row(key: "k", cells: ["text": .text(text)])
            let html = String(decoding: HTMLRenderer().row(row, in: ListDocument(title: "")), as: UTF8.self)
            #expect(html == "<tr data-row=\"k\"><td>\(Self.reference(text))</td></tr>", "length \(length)")
        }
    }

    @Test func tableLargerThanItsEstimateIsWhole() {
        let text = String(repeating: "<&>", count: 40_000)
        let doc = ListDocument(title: "Big", sections: [Section(key: "s", rows: [Row(key: "r", cells: ["text": .text(text)])])])
        let html = String(decoding: HTMLRenderer().table(doc), as: UTF8.self)
        #expect(html.contains("<td>" + String(repeating: "&lt;&amp;&gt;", count: 40_000) + "</td>"))
        #expect(html.hasSuffix("</tbody>\n</table>\n"))
    }
}
