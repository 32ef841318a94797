import HTTPServer

/// `GET /`: the HTML index of all lists.
enum IndexRoutes {
    static func register(on router: inout Router, context: ServerContext) {
        router.get("/") { _ in
            var response = Response.html(IndexPage.render(title: "Lists", lists: []))
            response.headers["Content-Security-Policy"] = "default-src 'self'; img-src 'self' https: data:"
            response.headers["X-Content-Type-Options"] = "nosniff"
            return response
        }
    }
}

/// A minimal index page until the store and `HTMLRenderer`'s index page are wired in.
enum IndexPage {
    struct Entry {
        let id: String
        let title: String
    }

    static func render(title: String, lists: [Entry]) -> [UInt8] {
        var html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLEscaping.escape(title))</title>
        <link rel="stylesheet" href="/assets/list.css">
        <script src="/assets/list.js" defer></script>
        </head>
        <body>
        <h1>\(HTMLEscaping.escape(title))</h1>

        """
        if lists.isEmpty {
            html += "<p class=\"empty\">No lists yet.</p>\n"
        } else {
            html += "<ul class=\"lists\">\n"
            for list in lists {
                html += "<li><a href=\"/lists/\(HTMLEscaping.escape(list.id))\">\(HTMLEscaping.escape(list.title))</a></li>\n"
            }
            html += "</ul>\n"
        }
        html += "</body>\n</html>\n"
        return Array(html.utf8)
    }
}

/// Escaping for text and attribute values.
enum HTMLEscaping {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
