import Testing

@testable import ListModel

@Suite struct DocumentJSONTests {
    static let countries = ListDocument(
        title: "Countries",
        columns: [
            Column(key: "name", title: "Name"),
            Column(key: "pop", title: "Population", kind: .number),
            Column(key: "flag", title: "Flag", kind: .image),
            Column(key: "wiki", title: "More", kind: .link),
        ],
        sections: [
            Section(
                key: "eu", header: "Europe", footer: "2 countries",
                rows: [
                    Row(
                        key: "it",
                        cells: [
                            "wiki": .link(text: "Wikipedia", href: "https://en.wikipedia.org/wiki/Italy"),
                            "flag": .image(src: "/img/it.png", alt: "Italian flag"),
                            "pop": .number(58.9),
                            "name": .text("Italy"),
                        ]),
                    Row(key: "fr", cells: ["pop": .number(68.2), "name": .text("France")], href: "/countries/fr"),
                ]),
            Section(key: "empty", collapsible: true, collapsed: true),
        ]
    )

    @Test func documentMembersInCanonicalOrderWithDefaults() throws {
        let json = Self.countries.json
        let object = try #require(json.objectValue)
        #expect(object.keys == ["title", "columns", "sections"])
        let expected: JSONValue = [
            "title": "Countries",
            "columns": [
                ["key": "name", "title": "Name", "kind": "text"],
                ["key": "pop", "title": "Population", "kind": "number"],
                ["key": "flag", "title": "Flag", "kind": "image"],
                ["key": "wiki", "title": "More", "kind": "link"],
            ],
            "sections": [
                [
                    "key": "eu", "header": "Europe", "footer": "2 countries", "collapsible": false,
                    "collapsed": false,
                    "rows": [
                        [
                            "key": "it",
                            "cells": [
                                "name": "Italy", "pop": 58.9,
                                "flag": ["src": "/img/it.png", "alt": "Italian flag"],
                                "wiki": ["text": "Wikipedia", "href": "https://en.wikipedia.org/wiki/Italy"],
                            ], "style": "default",
                        ],
                        [
                            "key": "fr", "cells": ["name": "France", "pop": 68.2], "href": "/countries/fr",
                            "style": "default",
                        ],
                    ],
                ],
                [
                    "key": "empty", "header": nil, "footer": nil, "collapsible": true, "collapsed": true,
                    "rows": [],
                ],
            ],
        ]
        #expect(json == expected)
    }

    @Test func cellsFollowColumnOrderAndMembersFollowTheSpec() throws {
        let sections = try #require(Self.countries.json.objectValue?["sections"]?.arrayValue)
        let eu = try #require(sections[0].objectValue)
        #expect(eu.keys == ["key", "header", "footer", "collapsible", "collapsed", "rows"])
        let italy = try #require(eu["rows"]?.arrayValue?[0].objectValue)
        #expect(italy.keys == ["key", "cells", "style"])
        #expect(italy["cells"]?.objectValue?.keys == ["name", "pop", "flag", "wiki"])
        let france = try #require(eu["rows"]?.arrayValue?[1].objectValue)
        #expect(france.keys == ["key", "cells", "href", "style"])
        #expect(italy["cells"]?.objectValue?["flag"]?.objectValue?.keys == ["src", "alt"])
    }

    @Test func optionalDocumentMembersAppearOnlyWhenSet() throws {
        var doc = ListDocument(title: "T")
        doc.emptyText = "Nothing"
        doc.state = .error(message: "down")
        doc.rowHeight = 32
        doc.estimatedRowHeight = 40
        let object = try #require(doc.json.objectValue)
        #expect(
            object.keys == [
                "title", "columns", "sections", "emptyText", "state", "rowHeight",
                "estimatedRowHeight",
            ])
        #expect(object["columns"] == [["key": "text", "title": "", "kind": "text"]])
        #expect(object["state"] == ["kind": "error", "message": "down"])
        #expect(object["state"]?.objectValue?.keys == ["kind", "message"])
        #expect(ListState.loading.json == ["kind": "loading"])
    }

    @Test func imageSizesAppearOnlyWhenSet() throws {
        let value = CellValue.image(src: "a.png", alt: "", width: 10, height: 20)
        #expect(value.json.objectValue?.keys == ["src", "alt", "width", "height"])
        #expect(value.json == ["src": "a.png", "alt": "", "width": 10, "height": 20])
        #expect(CellValue.image(src: "a.png", alt: "x", height: 5).json == ["src": "a.png", "alt": "x", "height": 5])
    }
}
