import HTMLRenderer
import ListModel
import Testing

/// Rendered HTML compared byte for byte with `Snapshots/*.html` (`RECORD_SNAPSHOTS=1` re-records).
@Suite struct SnapshotTests {
    let renderer = HTMLRenderer()

    func wholePage(_ doc: ListDocument) -> ListPage {
        ListPage(parts: doc.sections.indices.map { .init(sectionIndex: $0, rows: 0..<doc.sections[$0].rows.count) }, next: nil)
    }

    @Test func everyColumnKindWithSectionsLinksAndStyles() {
        assertSnapshot(renderer.table(Fixtures.countries), named: "countries-table")
    }

    @Test func firstPageWithPaginationRow() {
        let doc = Fixtures.numbered(sections: 2, rows: 3)
        let page = ListPage(parts: [.init(sectionIndex: 0, rows: 0..<3), .init(sectionIndex: 1, rows: 0..<1)], next: nil)
        let context = PageContext(listID: "numbered", version: 12, nextHref: "/lists/numbered/rows?after=b2s&limit=4", cursor: "b2s")
        assertSnapshot(renderer.page(doc, page: page, context: context), named: "page-first")
    }

    /// A writer's page: the table says `data-editable`, and the page preloads the editing mode.
    @Test func editablePage() {
        let doc = Fixtures.numbered(sections: 1, rows: 2)
        let context = PageContext(listID: "numbered", version: 3, editable: true)
        assertSnapshot(renderer.page(doc, page: wholePage(doc), context: context), named: "page-editable")
    }

    @Test func fragmentContinuingASection() {
        let doc = Fixtures.numbered(sections: 3, rows: 3)
        let page = ListPage(parts: [.init(sectionIndex: 1, rows: 1..<3), .init(sectionIndex: 2, rows: 0..<2)], next: nil)
        assertSnapshot(renderer.fragment(doc, page: page, nextHref: "/lists/numbered/rows?after=c3&limit=4"), named: "fragment-continued")
    }

    @Test func emptyList() {
        let doc = ListDocument(
            title: "Inbox", columns: [Column(key: "from", title: "From"), Column(key: "subject", title: "Subject")],
            emptyText: "No messages")
        assertSnapshot(renderer.page(doc, page: wholePage(doc), context: PageContext(listID: "inbox", version: 1)), named: "page-empty")
    }

    @Test func loadingState() {
        var doc = Fixtures.countries
        doc.state = .loading
        assertSnapshot(
            renderer.page(doc, page: wholePage(doc), context: PageContext(listID: "countries", version: 3)), named: "page-loading")
    }

    @Test func errorState() {
        var doc = Fixtures.countries
        doc.state = .error(message: "The upstream service did not answer.")
        assertSnapshot(renderer.page(doc, page: wholePage(doc), context: PageContext(listID: "countries", version: 4)), named: "page-error")
    }

    @Test func collapsibleSections() {
        let doc = Fixtures.numbered(sections: 3, rows: 2, collapsible: true)
        assertSnapshot(
            renderer.page(doc, page: wholePage(doc), context: PageContext(listID: "accordion", version: 2)), named: "page-collapsible")
    }

    @Test func fixedAndEstimatedRowHeights() {
        var fixed = Fixtures.countries
        fixed.rowHeight = 48
        assertSnapshot(renderer.table(fixed), named: "table-row-height")
        var lazy = Fixtures.numbered(sections: 1, rows: 3)
        lazy.estimatedRowHeight = 36
        assertSnapshot(renderer.table(lazy), named: "table-estimated-row-height")
    }

    @Test func countriesPage() {
        let doc = Fixtures.countries
        let context = PageContext(listID: "countries", version: 7, nextHref: "/lists/countries/rows?after=aW4&limit=50", cursor: "aW4")
        assertSnapshot(renderer.page(doc, page: wholePage(doc), context: context), named: "page-countries")
    }
}
