import Testing

@testable import ListModel

/// The error `ListDocument(json:)` throws for `json`, or `nil` when it accepts it.
func validationError(_ json: JSONValue, limits: ListDocument.Limits = .init()) -> ListDocumentError? {
    do {
        _ = try ListDocument(json: json, limits: limits)
        return nil
    } catch {
        return error
    }
}

/// A document of one section holding `row`, with columns name (text), pop (number),
/// wiki (link) and flag (image).
func docWithRow(_ row: JSONValue) -> JSONValue {
    [
        "title": "T",
        "columns": [
            ["key": "name"], ["key": "pop", "kind": "number"], ["key": "wiki", "kind": "link"],
            ["key": "flag", "kind": "image"],
        ],
        "sections": [["key": "s", "rows": [["key": "a"], row]]],
    ]
}

@Suite struct DocumentValidationTests {
    func expectError(
        _ json: JSONValue, _ text: String, limits: ListDocument.Limits = .init(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = validationError(json, limits: limits)
        #expect(error?.description == text, sourceLocation: sourceLocation)
    }

    @Test func theExampleFromTheSpec() {
        let error = validationError(docWithRow(["key": "b", "cells": ["pop": "lots"]]))
        #expect(error?.pointer == JSONPointer(tokens: ["sections", "0", "rows", "1", "cells", "pop"]))
        #expect(error?.message == "must be a number for column \"pop\" (kind number), got string")
        #expect(error?.description == "/sections/0/rows/1/cells/pop: must be a number for column \"pop\" (kind number), got string")
    }

    @Test func documentShapeAndRequiredMembers() {
        expectError([1], "a list document must be an object, got array")
        expectError([:], "a list document must have the member \"title\"")
        expectError(["title": 3], "/title: must be a string, got number")
        expectError(["title": "T", "sections": [["rows": []]]], "/sections/0: a section must have the member \"key\"")
        expectError(
            ["title": "T", "sections": [["key": "s", "rows": [["cells": [:]]]]]],
            "/sections/0/rows/0: a row must have the member \"key\"")
        expectError(["title": "T", "columns": [["title": "x"]]], "/columns/0: a column must have the member \"key\"")
        expectError(["title": "T", "sections": "x"], "/sections: must be an array of sections, got string")
        expectError(
            ["title": "T", "sections": [["key": "s", "rows": [:]]]],
            "/sections/0/rows: must be an array of rows, got object")
        expectError(
            ["title": "T", "sections": [["key": "s", "rows": [3]]]],
            "/sections/0/rows/0: must be an object, got number")
    }

    @Test func unknownMembersAreRejected() {
        expectError(
            ["title": "T", "colour": "red"],
            "/colour: unknown member; a list document has only title, columns, sections, emptyText, state, rowHeight, estimatedRowHeight")
        expectError(
            ["title": "T", "columns": [["key": "a", "width": 3]]],
            "/columns/0/width: unknown member; a column has only key, title, kind")
        expectError(
            ["title": "T", "sections": [["key": "s", "open": true]]],
            "/sections/0/open: unknown member; a section has only key, header, footer, collapsible, collapsed, rows")
        expectError(
            docWithRow(["key": "b", "onTap": "x"]),
            "/sections/0/rows/1/onTap: unknown member; a row has only key, cells, href, style")
        expectError(
            docWithRow(["key": "b", "cells": ["wiki": ["text": "W", "href": "/w", "title": "x"]]]),
            "/sections/0/rows/1/cells/wiki/title: unknown member; a link has only text, href")
        expectError(
            docWithRow(["key": "b", "cells": ["flag": ["src": "/f.png", "x": 1]]]),
            "/sections/0/rows/1/cells/flag/x: unknown member; an image has only src, alt, width, height")
        expectError(
            ["title": "T", "state": ["kind": "loading", "message": "x"]],
            "/state/message: unknown member; a loading state has only kind")
    }

    @Test func typesOfMembers() {
        expectError(
            ["title": "T", "sections": [["key": "s", "header": 1]]],
            "/sections/0/header: must be a string or null, got number")
        expectError(
            ["title": "T", "sections": [["key": "s", "collapsible": "yes"]]],
            "/sections/0/collapsible: must be a boolean, got string")
        expectError(
            ["title": "T", "columns": [["key": "a", "kind": "date"]]],
            "/columns/0/kind: must be one of \"text\", \"number\", \"link\", \"image\", got \"date\"")
        expectError(
            docWithRow(["key": "b", "style": "bold"]),
            "/sections/0/rows/1/style: must be one of \"default\", \"highlight\", \"muted\", got \"bold\"")
        expectError(docWithRow(["key": "b", "cells": []]), "/sections/0/rows/1/cells: must be an object of cells, got array")
        expectError(["title": "T", "state": ["kind": "busy"]], "/state/kind: must be \"loading\" or \"error\", got \"busy\"")
        expectError(["title": "T", "state": ["kind": "error"]], "/state: an error state must have the member \"message\"")
        expectError(["title": "T", "emptyText": false], "/emptyText: must be a string, got boolean")
    }

    @Test func keyLengths() {
        expectError(["title": "T", "sections": [["key": ""]]], "/sections/0/key: must not be empty")
        let long = String(repeating: "é", count: 129)  // 258 bytes
        expectError(
            ["title": "T", "columns": [["key": .string(long)]]],
            "/columns/0/key: must be at most 256 UTF-8 bytes, got 258")
        let fits = String(repeating: "é", count: 128)
        #expect(validationError(["title": "T", "columns": [["key": .string(fits)]]]) == nil)
        expectError(docWithRow(["key": 7]), "/sections/0/rows/1/key: must be a string, got number")
    }

    @Test func duplicateKeysNameBothPlaces() {
        expectError(
            ["title": "T", "columns": [["key": "a"], ["key": "b"], ["key": "a"]]],
            "/columns/2/key: duplicate column key \"a\", also at /columns/0/key")
        expectError(
            ["title": "T", "sections": [["key": "s"], ["key": "s"]]],
            "/sections/1/key: duplicate section key \"s\", also at /sections/0/key")
        expectError(
            [
                "title": "T",
                "sections": [
                    ["key": "s", "rows": [["key": "r"]]],
                    ["key": "t", "rows": [["key": "x"], ["key": "r"]]],
                ],
            ],
            "/sections/1/rows/1/key: duplicate row key \"r\", also at /sections/0/rows/0/key")
    }

    @Test func cellsMustNameDeclaredColumnsAndFitTheirKind() {
        expectError(
            docWithRow(["key": "b", "cells": ["area": 3]]),
            "/sections/0/rows/1/cells/area: no column has the key \"area\"")
        expectError(
            docWithRow(["key": "b", "cells": ["name": 3]]),
            "/sections/0/rows/1/cells/name: must be a string for column \"name\" (kind text), got number")
        expectError(
            docWithRow(["key": "b", "cells": ["wiki": "W"]]),
            "/sections/0/rows/1/cells/wiki: must be an object {\"text\", \"href\"} for column \"wiki\" (kind link), got string")
        expectError(
            docWithRow(["key": "b", "cells": ["flag": "/f.png"]]),
            "/sections/0/rows/1/cells/flag: must be an object {\"src\", \"alt\"} for column \"flag\" (kind image), got string")
        expectError(
            docWithRow(["key": "b", "cells": ["wiki": ["text": "W"]]]),
            "/sections/0/rows/1/cells/wiki: a link must have the member \"href\"")
        expectError(
            docWithRow(["key": "b", "cells": ["flag": ["alt": "x"]]]),
            "/sections/0/rows/1/cells/flag: an image must have the member \"src\"")
        expectError(
            docWithRow(["key": "b", "cells": ["flag": ["src": "/f.png", "width": 0]]]),
            "/sections/0/rows/1/cells/flag/width: must be a finite number greater than 0, got 0")
        expectError(
            docWithRow(["key": "b", "cells": ["pop": .number(.infinity)]]),
            "/sections/0/rows/1/cells/pop: must be a finite number for column \"pop\" (kind number)")
    }

    @Test func urlRules() {
        expectError(
            docWithRow(["key": "b", "href": "javascript:alert(1)"]),
            "/sections/0/rows/1/href: the URL scheme \"javascript\" is not allowed; use http, https, mailto or a relative URL")
        expectError(
            docWithRow(["key": "b", "href": "  JavaScript:alert(1)"]),
            "/sections/0/rows/1/href: the URL scheme \"JavaScript\" is not allowed; use http, https, mailto or a relative URL")
        expectError(
            docWithRow(["key": "b", "href": "java\tscript:alert(1)"]),
            "/sections/0/rows/1/href: must not contain control characters, found U+0009 at byte 4")
        expectError(
            docWithRow(["key": "b", "cells": ["flag": ["src": "data:image/png;base64,AAAA"]]]),
            "/sections/0/rows/1/cells/flag/src: the URL scheme \"data\" is not allowed; use http, https, mailto or a relative URL")
        expectError(
            docWithRow(["key": "b", "cells": ["wiki": ["text": "W", "href": "vbscript:x"]]]),
            "/sections/0/rows/1/cells/wiki/href: the URL scheme \"vbscript\" is not allowed; use http, https, mailto or a relative URL")
        let long = "/" + String(repeating: "a", count: 8192)
        expectError(
            docWithRow(["key": "b", "href": .string(long)]),
            "/sections/0/rows/1/href: must be at most 8192 bytes, got 8193")
        expectError(docWithRow(["key": "b", "href": 1]), "/sections/0/rows/1/href: must be a URL string, got number")
        for good in [
            "https://example.com/x", "HTTP://x", "mailto:a@b.c", "/countries/fr", "fr?x=1:2", "#top",
            "//cdn.example.com/a.png", "a/b:c", "1http:x",
        ] {
            #expect(validationError(docWithRow(["key": "b", "href": .string(good)])) == nil, "\(good)")
        }
    }

    @Test func stringLengths() {
        let long = String(repeating: "x", count: 65_537)
        expectError(["title": .string(long)], "/title: must be at most 65536 UTF-8 bytes, got 65537")
        expectError(
            docWithRow(["key": "b", "cells": ["name": .string(long)]]),
            "/sections/0/rows/1/cells/name: must be at most 65536 UTF-8 bytes, got 65537")
        expectError(
            ["title": "T", "sections": [["key": "s", "footer": .string(long)]]],
            "/sections/0/footer: must be at most 65536 UTF-8 bytes, got 65537")
        #expect(validationError(["title": .string(String(long.dropFirst()))]) == nil)
    }

    @Test func limits() {
        let limits = ListDocument.Limits(maxRows: 2, maxSections: 2, maxColumns: 2)
        expectError(
            ["title": "T", "columns": [["key": "a"], ["key": "b"], ["key": "c"]]],
            "/columns: must hold at most 2 columns, got 3", limits: limits)
        expectError(
            ["title": "T", "sections": [["key": "a"], ["key": "b"], ["key": "c"]]],
            "/sections: must hold at most 2 sections, got 3", limits: limits)
        expectError(
            [
                "title": "T",
                "sections": [
                    ["key": "a", "rows": [["key": "1"], ["key": "2"]]],
                    ["key": "b", "rows": [["key": "3"]]],
                ],
            ],
            "/sections/1/rows/0: the list may hold at most 2 rows", limits: limits)
        expectError(["title": "T", "columns": []], "/columns: must hold at least one column")
        #expect(ListDocument.Limits() == ListDocument.Limits(maxRows: 1_000_000, maxSections: 10_000, maxColumns: 64))
    }

    @Test func rowHeightRanges() {
        expectError(["title": "T", "rowHeight": 0], "/rowHeight: must be a number from 1 to 10000, got 0")
        expectError(
            ["title": "T", "estimatedRowHeight": 10_000.5],
            "/estimatedRowHeight: must be a number from 1 to 10000, got 10000.5")
        expectError(["title": "T", "rowHeight": "32px"], "/rowHeight: must be a number from 1 to 10000, got string")
        #expect(validationError(["title": "T", "rowHeight": 1, "estimatedRowHeight": 10_000]) == nil)
    }

    @Test func pointersEscapeTildeAndSlash() {
        let error = validationError(docWithRow(["key": "b", "cells": ["a/b~c": 1]]))
        #expect(error?.pointer.tokens.last == "a/b~c")
        #expect(error?.description == "/sections/0/rows/1/cells/a~1b~0c: no column has the key \"a/b~c\"")
    }
}
