import ListModel
import Testing

/// `ListDocument(json:)` on parsed text, and the canonical text it serializes to.
@Suite struct DocumentParsingTests {
    func canonicalText(_ text: String) throws -> String {
        let doc = try ListDocument(json: try JSONValue(parsing: text))
        return String(decoding: doc.json.serialized(), as: UTF8.self)
    }

    @Test func theAPIExampleInCanonicalForm() throws {
        let text = """
            {
              "title": "Countries",
              "columns": [
                {"key": "name", "title": "Name"},
                {"key": "pop",  "title": "Population", "kind": "number"},
                {"key": "flag", "title": "Flag",       "kind": "image"},
                {"key": "wiki", "title": "More",       "kind": "link"}
              ],
              "sections": [
                {"key": "eu", "header": "Europe", "footer": "2 countries",
                 "rows": [
                   {"key": "it", "cells": {"name": "Italy", "pop": 58.9,
                                           "flag": {"src": "/img/it.png", "alt": "Italian flag"},
                                           "wiki": {"text": "Wikipedia", "href": "https://en.wikipedia.org/wiki/Italy"}}},
                   {"key": "fr", "cells": {"pop": 68.2, "name": "France"}, "href": "/countries/fr"}
                 ]}
              ]
            }
            """
        let expected =
            #"{"title":"Countries","columns":[{"key":"name","title":"Name","kind":"text"},"#
            + #"{"key":"pop","title":"Population","kind":"number"},{"key":"flag","title":"Flag","kind":"image"},"#
            + #"{"key":"wiki","title":"More","kind":"link"}],"sections":[{"key":"eu","header":"Europe","#
            + #""footer":"2 countries","collapsible":false,"collapsed":false,"rows":[{"key":"it","cells":"#
            + #"{"name":"Italy","pop":58.9,"flag":{"src":"/img/it.png","alt":"Italian flag"},"#
            + #""wiki":{"text":"Wikipedia","href":"https://en.wikipedia.org/wiki/Italy"}},"style":"default"},"#
            + #"{"key":"fr","cells":{"name":"France","pop":68.2},"href":"/countries/fr","style":"default"}]}]}"#
        #expect(try canonicalText(text) == expected)
        // The canonical text is a fixed point.
        #expect(try canonicalText(expected) == expected)
    }

    @Test func minimalDocument() throws {
        #expect(
            try canonicalText(#"{"title":""}"#)
                == #"{"title":"","columns":[{"key":"text","title":"","kind":"text"}],"sections":[]}"#)
    }

    @Test func errorsFromParsedText() throws {
        let value = try JSONValue(parsing: #"{"title": "T", "sections": [{"key": "a~b/c", "rows": [{"key": 1}]}]}"#)
        let error = #expect(throws: ListDocumentError.self) { try ListDocument(json: value) }
        #expect(error?.description == "/sections/0/rows/0/key: must be a string, got number")
    }
}
