import ListModel

/// One line of the index of lists (`GET /`, `GET /lists` as HTML).
public struct ListSummary: Sendable, Equatable {
    /// The list's id, as in `/lists/{id}`.
    public var id: String
    public var title: String
    /// The number of rows in the list.
    public var rows: Int
    public var version: Int

    public init(id: String, title: String, rows: Int, version: Int) {
        self.id = id
        self.title = title
        self.rows = rows
        self.version = version
    }
}

extension HTMLRenderer {
    /// A complete HTML document listing `lists` in the given order, each linking to `/lists/{id}`.
    ///
    /// The id is percent-encoded as a path segment (ids are path-safe by API rules, so this
    /// normally changes nothing) and then escaped; an empty index says "No lists yet.". The index
    /// links `list.css`; its caption is the page's `<h1>`. With `nextHref` (the index is paged),
    /// it ends with a `rel="next"` link to the next page. With `liveHref` (the live index of
    /// this page, `GET /events`), the table carries it as `data-live` and the page loads the
    /// client, which keeps the rows current (each `<tr>` names its list in `data-id`).
    public func indexPage(
        _ lists: [ListSummary], assetsPath: String = "/assets", nextHref: String? = nil, liveHref: String? = nil
    ) -> [UInt8] {
        var out = HTMLWriter(capacity: 1024 + lists.count * 180)
        out.documentStart(title: "Lists", assetsPath: assetsPath, client: liveHref == nil ? .none : .index)
        out.raw("<table class=\"list index\"")
        if let liveHref {
            out.raw(" data-live=\"")
            out.escape(liveHref)
            out.raw("\"")
        }
        out.raw(
            """
            >
            <caption><h1>Lists</h1></caption>
            <thead><tr><th scope="col">Title</th><th scope="col">Id</th>\
            <th scope="col" class="num">Rows</th><th scope="col" class="num">Version</th></tr></thead>
            <tbody>

            """)
        for list in lists {
            out.raw("<tr class=\"linked\" data-id=\"")
            out.escape(list.id)
            out.raw("\"><td><a class=\"row-link\" href=\"/lists/")
            var path = HTMLWriter(capacity: list.id.utf8.count + 8)
            path.pathSegment(list.id)
            out.escape(String(decoding: path.bytes, as: UTF8.self))
            out.raw("\">")
            if list.title.isEmpty { out.text(list.id) } else { out.text(list.title) }
            out.raw("</a></td><td><code>")
            out.text(list.id)
            out.raw("</code></td><td class=\"num\">")
            out.appendGrouped(UInt64(max(0, list.rows)))
            out.raw("</td><td class=\"num\">")
            out.decimal(list.version)
            out.raw("</td></tr>\n")
        }
        out.raw("</tbody>\n")
        if lists.isEmpty {
            out.raw("<tbody class=\"empty\"><tr><td colspan=\"4\">No lists yet.</td></tr></tbody>\n")
        }
        if let nextHref {
            out.raw("<tbody class=\"pagination\"><tr><td colspan=\"4\"><a rel=\"next\" href=\"")
            out.escape(nextHref)
            out.raw("\">More lists</a></td></tr></tbody>\n")
        }
        out.raw("</table>\n")
        out.documentEnd()
        return out.finish()
    }
}
