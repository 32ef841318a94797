import ListModelTesting
import Testing

@testable import ListModel

/// `ListDocument.Assembler` (how a store's rows become a list at a start) against
/// `ListDocument(json:)` reading the same document whole.
@Suite struct DocumentAssemblerTests {
    /// The document's JSON with every section's rows emptied, and its rows as (section, JSON),
    /// in document order.
    func split(_ doc: ListDocument) -> (meta: JSONValue, rows: [(section: String, json: JSONValue)]) {
        var shell = doc
        var rows: [(String, JSONValue)] = []
        for index in shell.sections.indices {
            for row in shell.sections[index].rows { rows.append((shell.sections[index].key, row.json)) }
            shell.sections[index].rows = []
        }
        return (shell.json, rows)
    }

    func assemble(_ meta: JSONValue, _ rows: [(section: String, json: JSONValue)], limits: ListDocument.Limits = .init())
        throws(ListDocumentError) -> ListDocument
    {
        var assembler = try ListDocument.Assembler(meta: meta, expectedRows: rows.count, limits: limits)
        for row in rows {
            guard let section = assembler.section(keyed: row.section) else {
                throw ListDocumentError(pointer: .root, message: "no section \(row.section)")
            }
            try assembler.append(row.json, toSection: section)
        }
        return try assembler.finish()
    }

    @Test func randomDocumentsComeOutAsReadWhole() throws {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<200 {
            let doc = randomDocument(sections: 5, rowsPerSection: 8, using: &rng)
            let (meta, rows) = split(doc)
            let assembled = try assemble(meta, rows)
            #expect(assembled == (try ListDocument(json: doc.json)))
            #expect(assembled.json == doc.json)
        }
    }

    @Test func rowsOfSectionsInterleavedLandInTheirSections() throws {
        let meta: JSONValue = [
            "title": "T", "columns": [["key": "n", "kind": "number"]],
            "sections": [["key": "a", "rows": []], ["key": "b", "rows": []]],
        ]
        let rows: [(section: String, json: JSONValue)] = [
            ("b", ["key": "b1", "cells": ["n": 1]]), ("a", ["key": "a1", "cells": ["n": 2]]),
            ("b", ["key": "b2", "cells": ["n": 3]]),
        ]
        let doc = try assemble(meta, rows)
        #expect(doc.sections.map { $0.rows.map(\.key) } == [["a1"], ["b1", "b2"]])
    }

    @Test func errorsPointWhereTheWholeDocumentWouldSay() throws {
        let meta: JSONValue = [
            "title": "T", "columns": [["key": "n", "kind": "number"]],
            "sections": [["key": "a", "rows": []], ["key": "b", "rows": []]],
        ]
        // A cell that does not fit its column: the row's place in its section.
        let badCell = #expect(throws: ListDocumentError.self) {
            try assemble(meta, [("b", ["key": "x", "cells": ["n": 1]]), ("b", ["key": "y", "cells": ["n": "one"]])])
        }
        #expect(badCell?.pointerText == "/sections/1/rows/1/cells/n")
        // A row key repeated in another section: where the repeat is, naming the first.
        let repeated = #expect(throws: ListDocumentError.self) {
            try assemble(meta, [("a", ["key": "x"]), ("b", ["key": "y"]), ("b", ["key": "x"])])
        }
        #expect(repeated?.pointerText == "/sections/1/rows/1/key")
        #expect(repeated?.message.contains("/sections/0/rows/0/key") == true)
        // The row limit counts every section's rows.
        let tooMany = #expect(throws: ListDocumentError.self) {
            try assemble(meta, [("a", ["key": "x"]), ("b", ["key": "y"])], limits: .init(maxRows: 1))
        }
        #expect(tooMany?.message.contains("at most 1 rows") == true)
    }
}
