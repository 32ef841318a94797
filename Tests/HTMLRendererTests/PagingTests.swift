import HTMLRenderer
import ListModel
import Testing

@Suite struct PagingTests {
    let renderer = HTMLRenderer()
    let doc = Fixtures.numbered(sections: 2, rows: 3)
    let cursor = Cursor(orderKey: OrderKey(rawValue: "a1"), rowKey: "r1-0")

    /// Rows 0…2 of s0 and row 0 of s1: more remain.
    var firstPage: ListPage {
        ListPage(parts: [.init(sectionIndex: 0, rows: 0..<3), .init(sectionIndex: 1, rows: 0..<1)], next: cursor)
    }

    /// Rows 1…2 of s1: the end.
    var lastPage: ListPage { ListPage(parts: [.init(sectionIndex: 1, rows: 1..<3)], next: nil) }

    @Test func pageIsACompleteDocumentWithoutInlineScriptOrStyle() {
        let context = PageContext(listID: "nums", version: 7, nextHref: "/lists/nums/rows?after=Zm9v&limit=4", cursor: "Zm9v")
        let html = string(renderer.page(doc, page: firstPage, context: context))
        #expect(html.hasPrefix("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"))
        #expect(html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
        #expect(html.contains("<title>Numbered</title>"))
        #expect(html.contains("<link rel=\"stylesheet\" href=\"/assets/list.css\">"))
        #expect(html.contains("<script type=\"module\" src=\"/assets/js/main.js\"></script>"))
        #expect(html.components(separatedBy: "<script").count == 2, "only the external script")
        #expect(!html.contains("style="))
        #expect(!html.contains("<style"))
        #expect(!html.contains(" on"), "no event-handler attributes")
        #expect(html.contains("<table class=\"list\" data-list=\"nums\" data-version=\"7\" data-cursor=\"Zm9v\">"))
        #expect(
            html.contains(
                "<tbody class=\"pagination\"><tr><td colspan=\"1\"><a rel=\"next\" href=\"/lists/nums/rows?after=Zm9v&amp;limit=4\">Load more</a></td></tr></tbody>\n</table>"
            ))
        #expect(html.hasSuffix("</html>\n"))
    }

    @Test func footerWaitsForTheSectionsLastRow() {
        let html = string(renderer.page(doc, page: firstPage, context: PageContext(listID: "n", version: 1)))
        #expect(html.contains("End of section 0"))
        #expect(html.contains("Section 1"))
        #expect(!html.contains("End of section 1"))
        #expect(!html.contains("pagination"), "no next link when nextHref is nil")
        #expect(!html.contains("data-cursor"))
    }

    @Test func fragmentContinuesASectionWithoutItsHeader() {
        let html = string(renderer.fragment(doc, page: lastPage, nextHref: nil))
        #expect(
            html == """
                <tbody data-section="s1" class="continued">
                <tr data-row="r1-1"><td>Row 1.1</td></tr>
                <tr data-row="r1-2"><td>Row 1.2</td></tr>
                <tr class="section-footer"><td colspan="1">End of section 1</td></tr>
                </tbody>

                """)
    }

    @Test func fragmentEndsWithThePaginationRowWhileMoreRemain() {
        let page = ListPage(parts: [.init(sectionIndex: 0, rows: 0..<2)], next: cursor)
        let html = string(renderer.fragment(doc, page: page, nextHref: "/lists/n/rows?after=x"))
        #expect(html.hasPrefix("<tbody data-section=\"s0\">\n<tr class=\"section-header\">"))
        #expect(!html.contains("End of section 0"))
        #expect(
            html.hasSuffix(
                "<tbody class=\"pagination\"><tr><td colspan=\"1\"><a rel=\"next\" href=\"/lists/n/rows?after=x\">Load more</a></td></tr></tbody>\n"
            ))
    }

    @Test func pagesTogetherHoldEveryRowOnce() {
        let whole = string(renderer.table(doc))
        let first = string(renderer.page(doc, page: firstPage, context: PageContext(listID: "n", version: 1)))
        let rest = string(renderer.fragment(doc, page: lastPage, nextHref: nil))
        for section in doc.sections {
            for row in section.rows {
                let markup = string(renderer.row(row, in: doc))
                #expect(whole.contains(markup))
                #expect(first.components(separatedBy: markup).count + rest.components(separatedBy: markup).count == 3)
            }
        }
    }

    @Test func continuedCollapsibleSectionKeepsItsClassesButNotItsID() {
        let doc = Fixtures.numbered(sections: 2, rows: 3, collapsible: true)
        let html = string(renderer.fragment(doc, page: lastPage, nextHref: nil))
        #expect(html.hasPrefix("<tbody data-section=\"s1\" class=\"collapsible collapsed continued\">\n<tr data-row"))
    }
}
