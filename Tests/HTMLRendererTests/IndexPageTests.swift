import HTMLRenderer
import ListModel
import Testing

@Suite struct IndexPageTests {
    let renderer = HTMLRenderer()

    @Test func listsLinkToTheirPages() {
        let html = string(
            renderer.indexPage([
                ListSummary(id: "countries", title: "Countries", rows: 1_234_567, version: 7),
                ListSummary(id: "todo.2026", title: "To do", rows: 0, version: 1),
            ]))
        #expect(html.hasPrefix("<!doctype html>\n<html lang=\"en\">"))
        #expect(html.contains("<a class=\"row-link\" href=\"/lists/countries\">Countries</a>"))
        #expect(html.contains("<a class=\"row-link\" href=\"/lists/todo.2026\">To do</a>"))
        #expect(html.contains("<td class=\"num\">1,234,567</td><td class=\"num\">7</td>"))
        #expect(!html.contains("No lists yet."))
    }

    @Test func snapshot() {
        assertSnapshot(
            renderer.indexPage(
                [
                    ListSummary(id: "countries", title: "Countries", rows: 4, version: 7),
                    ListSummary(id: "groceries", title: "Groceries & <stuff>", rows: 1200, version: 31),
                ], liveHref: "/events"), named: "index")
    }

    @Test func aPagedIndexLinksToItsNextPage() {
        let summaries = [ListSummary(id: "a", title: "A", rows: 1, version: 1)]
        let html = string(renderer.indexPage(summaries, nextHref: "/?after=a&limit=1\"><x"))
        #expect(
            html.contains(
                #"<tbody class="pagination"><tr><td colspan="4"><a rel="next" href="/?after=a&amp;limit=1&quot;&gt;&lt;x">More lists</a>"#))
        #expect(!string(renderer.indexPage(summaries)).contains("rel=\"next\""))
    }

    @Test func emptyIndexSaysSo() {
        let html = string(renderer.indexPage([]))
        #expect(html.contains("No lists yet."))
        #expect(html.contains("<title>Lists</title>"))
    }

    @Test func idsAndTitlesAreEscaped() {
        let html = string(
            renderer.indexPage([
                ListSummary(id: "a\"b c<", title: "<script>alert(1)</script>", rows: 1, version: 1)
            ]))
        #expect(html.contains("href=\"/lists/a%22b%20c%3C\""))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("<code>a&quot;b c&lt;</code>"))
    }

    @Test func aLiveIndexNamesItsStreamAndLoadsTheClient() {
        let summaries = [ListSummary(id: "a\"b", title: "A", rows: 1, version: 1)]
        let html = string(renderer.indexPage(summaries, liveHref: "/events?after=x\"y"))
        #expect(html.contains(#"<table class="list index" data-live="/events?after=x&quot;y">"#))
        #expect(html.contains(#"<tr class="linked" data-id="a&quot;b">"#))
        #expect(html.contains(#"<script type="module" src="/assets/js/main.js"></script>"#))
        #expect(!string(renderer.indexPage(summaries)).contains("data-live"))
    }

    @Test func assetsPathIsHonoured() {
        let html = string(renderer.indexPage([], assetsPath: "/static/"))
        #expect(html.contains("<link rel=\"stylesheet\" href=\"/static/list.css\">"))
        #expect(!html.contains("<script"))
    }
}
