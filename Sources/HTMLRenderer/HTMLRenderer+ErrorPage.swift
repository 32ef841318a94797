import ListModel

extension HTMLRenderer {
    /// A complete HTML document for an error a browser navigated to: the status as the heading,
    /// `detail` as a sentence, an optional `hint`, and `links` (href, text) to go on from there.
    /// All text is escaped; like every page it holds no script or inline style.
    public func errorPage(
        status: Int, title: String, detail: String?, hint: String? = nil,
        links: [(href: String, text: String)] = [], assetsPath: String = "/assets"
    ) -> [UInt8] {
        var out = HTMLWriter(capacity: 1024)
        out.documentStart(title: "\(status) \(title)", assetsPath: assetsPath, client: .none)
        out.raw("<section class=\"error-page\">\n<h1>")
        out.text(title)
        out.raw("</h1>\n")
        if let detail {
            out.raw("<p>")
            out.text(detail)
            out.raw("</p>\n")
        }
        if let hint {
            out.raw("<p class=\"hint\">")
            out.text(hint)
            out.raw("</p>\n")
        }
        if !links.isEmpty {
            out.raw("<nav><ul>\n")
            for link in links {
                out.raw("<li><a href=\"")
                out.escape(link.href)
                out.raw("\">")
                out.text(link.text)
                out.raw("</a></li>\n")
            }
            out.raw("</ul></nav>\n")
        }
        out.raw("</section>\n")
        out.documentEnd()
        return out.finish()
    }
}
