import ListModel

/// What the server knows about a page beyond the document: where it lives and what comes next.
public struct PageContext: Sendable, Equatable {
    /// The list's id, written to `data-list`.
    public var listID: String
    /// The document's version, written to `data-version`.
    public var version: Int
    /// The URL of the next page (the `rel="next"` link); `nil` when no rows remain.
    public var nextHref: String?
    /// The encoded cursor after the page's last row, written to `data-cursor` so the client can
    /// subscribe with exactly the rows it shows; `nil` omits the attribute.
    public var cursor: String?
    /// Where `list.css` and the client's modules (`js/main.js`) are served, without a trailing slash.
    public var assetsPath: String
    /// Whether the page links the index of lists ("All lists"): not for a page opened with a view
    /// link, whose reader may not see the index.
    public var linksIndex: Bool
    /// The view controls (sortable headers, search, filters, CSV link), or nil for none.
    public var view: ViewControls?
    /// Whether this reader may write the list (an edit link, or a server without tokens): the
    /// table says so in `data-editable="true"` and the client offers its editing mode.
    public var editable: Bool

    public init(
        listID: String, version: Int, nextHref: String? = nil, cursor: String? = nil, assetsPath: String = "/assets",
        linksIndex: Bool = true, view: ViewControls? = nil, editable: Bool = false
    ) {
        self.view = view
        self.editable = editable
        self.listID = listID
        self.version = version
        self.nextHref = nextHref
        self.cursor = cursor
        self.assetsPath = assetsPath
        self.linksIndex = linksIndex
    }
}

extension HTMLRenderer {
    /// A complete HTML document showing one page of a list, usable without JavaScript.
    ///
    /// The `<table>` carries `data-list`, `data-version` and `data-cursor`; it ends with the
    /// pagination row while `context.nextHref` is set. The page links `list.css` and the client's
    /// entry module `js/main.js` from `context.assetsPath` and holds no inline script or style,
    /// so it works under `Content-Security-Policy: default-src 'self'`. With `rowVersions`, each
    /// row carries its version (`<tr data-row="…" data-version="V">`).
    public func page(_ doc: ListDocument, page: ListPage, context: PageContext, rowVersions: RowVersions? = nil) -> [UInt8] {
        let columns = ResolvedColumns(doc, renderers: cellRenderers)
        let capacity = HTMLWriter.estimatedSize(doc, parts: page.parts, columns: columns) + 1024
        return HTMLWriter.render(capacity: capacity) { out in
            out.documentStart(title: doc.title, assetsPath: context.assetsPath, client: .list(editable: context.editable))
            if context.linksIndex { out.raw("<nav class=\"breadcrumbs\"><a href=\"/\">All lists</a></nav>\n") }
            if let view = context.view { out.viewControls(view, listID: context.listID, columns: doc.columns) }
            out.table(
                doc, parts: page.parts,
                attributes: TableAttributes(
                    listID: context.listID, version: context.version, cursor: context.cursor, editable: context.editable),
                nextHref: context.nextHref, columns: columns, headingCaption: true, view: context.view,
                rowVersions: rowVersions)
            out.documentEnd()
        }
    }

    /// The `<tbody data-section>` fragments of a page for tail loading, ready to append.
    ///
    /// A part that continues a section from the previous page has class `continued`, no `id` and no
    /// header row (the client moves its rows into the section's existing `<tbody>`); a footer
    /// appears once its section's last row is in. Ends with the pagination `<tbody>` while
    /// `nextHref` is set. The list's state and `emptyText` are not repeated here.
    public func fragment(_ doc: ListDocument, page: ListPage, nextHref: String?, rowVersions: RowVersions? = nil) -> [UInt8] {
        let columns = ResolvedColumns(doc, renderers: cellRenderers)
        return HTMLWriter.render(capacity: HTMLWriter.estimatedSize(doc, parts: page.parts, columns: columns)) { out in
            out.sectionBodies(doc, parts: page.parts, columns: columns, rowVersions: rowVersions)
            if let nextHref { out.paginationBody(nextHref: nextHref, columnCount: columns.count) }
        }
    }
}

/// What of the client a page loads (Public/js/README.md): nothing, or the entry module `js/main.js`
/// with a `modulepreload` link for each module it imports on that page, so that the browser
/// fetches them all at once rather than level by level through the imports.
enum ClientScript {
    /// No script: error pages, and an index that is not live.
    case none
    /// A list's page; a writer's (`data-editable`) also preloads the editing mode.
    case list(editable: Bool)
    /// The live index of lists.
    case index

    /// The modules `js/main.js` imports on every page (`import … from`, directly or through them).
    static let entryModules = ["rows.js", "pager.js", "list-view.js", "view-controls.js", "live-stream.js", "json-patch.js", "config.js"]
    /// What main.js imports (`import()`) for a `data-editable` table.
    static let editingModules = ["edit-mode.js", "edit-rows.js", "edit-writes.js"]
    /// What main.js imports (`import()`) for the live index.
    static let indexModules = ["index-view.js"]

    /// The modules the page preloads (`Tests/browser/check_modules.py` checks them against the
    /// modules' imports), or nil for no script at all.
    var preloads: [String]? {
        switch self {
        case .none: nil
        case .list(let editable): editable ? Self.entryModules + Self.editingModules : Self.entryModules
        case .index: Self.entryModules + Self.indexModules
        }
    }
}

extension HTMLWriter {
    /// `<!doctype html>` through `<body><main>`: charset, viewport, title, icon, stylesheet, and
    /// what of the client the page loads (`client`): the entry module (deferred, as module scripts
    /// are) and its `modulepreload` links. The icon is declared (`favicon.svg` among the assets)
    /// so browsers never ask for a missing `/favicon.ico`.
    mutating func documentStart(title: String, assetsPath: String, client: ClientScript) {
        var assets = Substring(assetsPath)
        while assets.hasSuffix("/") { assets = assets.dropLast() }
        let assetsPrefix = String(assets)
        raw(
            """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>
            """)
        text(title)
        raw("</title>\n<link rel=\"icon\" href=\"")
        escape(assetsPrefix)
        raw("/favicon.svg\" type=\"image/svg+xml\">\n<link rel=\"stylesheet\" href=\"")
        escape(assetsPrefix)
        raw("/list.css\">\n")
        if let preloads = client.preloads {
            raw("<script type=\"module\" src=\"")
            escape(assetsPrefix)
            raw("/js/main.js\"></script>\n")
            for module in preloads {
                raw("<link rel=\"modulepreload\" href=\"")
                escape(assetsPrefix)
                raw("/js/")
                escape(module)
                raw("\">\n")
            }
        }
        raw("</head>\n<body>\n<main>\n")
    }

    mutating func documentEnd() {
        raw("</main>\n</body>\n</html>\n")
    }
}
