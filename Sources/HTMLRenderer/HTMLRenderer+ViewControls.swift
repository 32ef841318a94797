import ListModel

/// The controls of a page that can be seen through a view (API.md section 9): sortable column
/// headers, a search form, the active filters each with a link that removes it, and the CSV
/// export. All of them are links and a GET form: they work without JavaScript.
public struct ViewControls: Sendable, Equatable {
    /// The query the page shows; nil for the list as it is.
    public var query: ListQuery?
    /// A view link's key, carried on every link and in the form (nil for none).
    public var viewKey: String?

    public init(query: ListQuery?, viewKey: String? = nil) {
        self.query = query
        self.viewKey = viewKey
    }

    /// The link to the list's page through `query` (nil: the list as it is), with the key.
    func href(listID: String, _ query: ListQuery?, extra: String? = nil) -> String {
        var path = HTMLWriter(capacity: listID.utf8.count + 8)
        path.pathSegment(listID)
        let parameters = [query?.queryString ?? "", extra ?? "", viewKey.map { "key=\($0)" } ?? ""].filter { !$0.isEmpty }
        let base = "/lists/" + String(decoding: path.bytes, as: UTF8.self)
        return parameters.isEmpty ? base : base + "?" + parameters.joined(separator: "&")
    }

    /// The query sorted by `column`: ascending, or descending when it is sorted ascending now.
    func sorting(by column: String) -> ListQuery {
        let current = query ?? ListQuery()
        let descending = current.sort?.column == column && current.sort?.descending == false
        return ListQuery(
            sort: ListQuery.Sort(column: column, descending: descending), search: current.search,
            filters: current.filters)
    }

    /// `aria-sort` of `column`'s header: "ascending", "descending", or nil when not sorted by it.
    func ariaSort(_ column: String) -> String? {
        guard let sort = query?.sort, sort.column == column else { return nil }
        return sort.descending ? "descending" : "ascending"
    }
}

extension HTMLWriter {
    /// The search form, the active filters and the CSV link, above the table.
    mutating func viewControls(_ controls: ViewControls, listID: String, columns: [Column]) {
        let query = controls.query ?? ListQuery()
        raw("<div class=\"view-controls\">\n<form role=\"search\" method=\"get\" class=\"view-search\" action=\"")
        escape(controls.href(listID: listID, nil).split(separator: "?").first.map(String.init) ?? "")
        raw("\">\n<label for=\"view-q\">Search</label>\n<input type=\"search\" id=\"view-q\" name=\"q\" maxlength=\"256\"")
        if let search = query.search { attribute("value", search) }
        raw(">\n")
        for (name, value) in query.canonicalParameters where name != "q" { hiddenInput(name, value) }
        if let key = controls.viewKey { hiddenInput("key", key) }
        raw("<button type=\"submit\">Search</button>\n</form>\n")
        if query.search != nil || !query.filters.isEmpty {
            raw("<ul class=\"view-filters\" aria-label=\"Active filters\">\n")
            if let search = query.search {
                let without = ListQuery(sort: query.sort, search: nil, filters: query.filters)
                filterItem(
                    "Search: \u{201C}\(search)\u{201D}", remove: controls.href(listID: listID, without.isIdentity ? nil : without),
                    label: "Remove search \u{201C}\(search)\u{201D}")
            }
            for filter in query.filters {
                let without = ListQuery(sort: query.sort, search: query.search, filters: query.filters.filter { $0 != filter })
                let title = columns.first { utf8Equal($0.key, filter.column) }.map { $0.title.isEmpty ? $0.key : $0.title } ?? filter.column
                let text = "\(title) \(filter.op.rawValue)" + (filter.value.map { " \($0)" } ?? "")
                filterItem(
                    text, remove: controls.href(listID: listID, without.isIdentity ? nil : without),
                    label: "Remove filter " + text)
            }
            raw("</ul>\n")
        }
        raw("<a class=\"view-csv\" href=\"")
        escape(controls.href(listID: listID, controls.query, extra: "format=csv"))
        raw("\" download>Download CSV</a>\n</div>\n")
    }

    private mutating func hiddenInput(_ name: String, _ value: String) {
        raw("<input type=\"hidden\"")
        attribute("name", name)
        attribute("value", value)
        raw(">\n")
    }

    private mutating func filterItem(_ text: String, remove href: String, label: String) {
        raw("<li>")
        self.text(text)
        raw(" <a href=\"")
        escape(href)
        raw("\" aria-label=\"")
        escape(label)
        raw("\">Remove</a></li>\n")
    }

    /// A column header that sorts by its column: a link, and `aria-sort` on the sorted one.
    mutating func sortableHeader(_ column: Column, title: String, cellClass: String?, controls: ViewControls, listID: String) {
        raw("<th scope=\"col\"")
        if let cellClass { attribute("class", cellClass) }
        if let sort = controls.ariaSort(column.key) { attribute("aria-sort", sort) }
        raw("><a class=\"sort\" href=\"")
        escape(controls.href(listID: listID, controls.sorting(by: column.key)))
        raw("\">")
        text(title)
        raw("</a></th>")
    }
}
