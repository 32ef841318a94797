import Testing

@testable import ListModel

/// Keys compare by their UTF-8 bytes everywhere (API.md "Keys"): look-alike keys that Swift's
/// `String` calls equal (canonically equivalent: NFC and NFD, KELVIN SIGN and "K") or that only
/// look alike (fullwidth, ligature, a trailing ZWJ) are different keys of different rows,
/// sections and columns, found, edited, diffed, paged and viewed one by one.
@Suite struct KeyBytesTests {
    /// Pairs of keys that differ in their bytes only by how a reader would see them.
    static let lookAlikes: [(String, String)] = [
        ("\u{E9}", "e\u{301}"),  // é precomposed (NFC) and decomposed (NFD)
        ("K", "\u{212A}"),  // LATIN CAPITAL K and KELVIN SIGN (canonically equivalent)
        ("A", "\u{FF21}"),  // A and FULLWIDTH A
        ("fi", "\u{FB01}"),  // f i and the LATIN SMALL LIGATURE FI
        ("a", "a\u{200D}"),  // a, and a followed by ZERO WIDTH JOINER
    ]

    /// A list of two sections, one per key of the pair, each holding one row per key of the
    /// pair (keys prefixed so they stay unique), and two columns named by the pair.
    static func document(_ pair: (String, String)) throws -> ListDocument {
        let (a, b) = pair
        let text = """
            {"title": "t", "columns": [{"key": "\(a)"}, {"key": "\(b)"}], "sections": [
              {"key": "\(a)", "rows": [{"key": "\(a)", "cells": {"\(a)": "\(a)", "\(b)": "1"}}]},
              {"key": "\(b)", "rows": [{"key": "\(b)", "cells": {"\(b)": "\(b)", "\(a)": "2"}}]}]}
            """
        return try ListDocument(json: JSONValue(parsing: Array(text.utf8)))
    }

    @Test(arguments: 0..<lookAlikes.count)
    func lookAlikeKeysAreDifferentRowsSectionsAndColumns(_ index: Int) throws {
        let (a, b) = Self.lookAlikes[index]
        let document = try Self.document((a, b))
        #expect(document.columns.map { Array($0.key.utf8) } == [Array(a.utf8), Array(b.utf8)])
        #expect(document.sections.map { Array($0.key.utf8) } == [Array(a.utf8), Array(b.utf8)])
        // Each cell went to the column whose key has its name's bytes.
        let first = document.sections[0].rows[0], second = document.sections[1].rows[0]
        #expect(first.cells.withUnsafeEntries { $0.map { Array($0.key.utf8) } } == [Array(a.utf8), Array(b.utf8)])
        #expect(first.cells.withUnsafeEntries { $0.map(\.value) } == [.text(a), .text("1")])
        #expect(second.cells.withUnsafeEntries { $0.map(\.value) } == [.text("2"), .text(b)])
        // Each key finds its own row.
        let list = IndexedList(document: document)
        #expect(list.position(ofRow: a) == 0)
        #expect(list.position(ofRow: b) == 1)
        #expect(document.location(ofRow: b)! == (1, 0))
    }

    @Test(arguments: 0..<lookAlikes.count)
    func repeatedBytesAreStillDuplicates(_ index: Int) {
        let (a, _) = Self.lookAlikes[index]
        let text = #"{"title": "t", "sections": [{"key": "s", "rows": [{"key": "\#(a)"}, {"key": "\#(a)"}]}]}"#
        #expect(throws: ListDocumentError.self) { try ListDocument(json: JSONValue(parsing: Array(text.utf8))) }
    }

    @Test(arguments: 0..<lookAlikes.count)
    func rowEditsReachExactlyTheNamedRow(_ index: Int) throws {
        let (a, b) = Self.lookAlikes[index]
        let list = IndexedList(document: try Self.document((a, b)))
        // Replace b's row: a's stays as it was.
        let replaced = try list.replacingRow(Row(key: b, cells: [b: .text("new")]))
        #expect(replaced.writtenRowKeys.map { Array($0.utf8) } == [Array(b.utf8)])
        #expect(replaced.list.document.sections[0].rows[0] == list.document.sections[0].rows[0])
        #expect(replaced.list.document.sections[1].rows[0].cells[b] == .text("new"))
        #expect(replaced.patch.operations.allSatisfy { $0.path.tokens.prefix(2) == ["sections", "1"] })
        // Remove a's row: b's stays.
        let removed = try list.removingRow(key: a)
        #expect(removed.list.document.sections.map { $0.rows.map { Array($0.key.utf8) } } == [[], [Array(b.utf8)]])
        // Move b's row into a's section, after a's row: both stay.
        let moved = try list.movingRow(key: b, to: .after(a))
        #expect(moved.list.document.sections.map { $0.rows.map { Array($0.key.utf8) } } == [[Array(a.utf8), Array(b.utf8)], []])
        // A new row whose key has b's bytes is refused; one with other look-alike bytes is not.
        #expect(throws: ListEditError.self) { try list.insertingRows([Row(key: b)], inSection: a) }
        #expect(throws: ListEditError.self) { try list.movingRow(key: a, to: .before(a)) }
        #expect(throws: ListEditError.self) { try list.insertingRows([Row(key: "x"), Row(key: "x")], inSection: b) }
        #expect(try list.insertingRows([Row(key: a + b)], inSection: b).list.rowCount == 3)
    }

    /// A row whose key changes to a look-alike is another row: the diff removes one and adds
    /// the other; a text that changes to a look-alike is a changed cell.
    @Test(arguments: 0..<lookAlikes.count)
    func diffsSeeLookAlikeChanges(_ index: Int) throws {
        let (a, b) = Self.lookAlikes[index]
        let old = ListDocument(title: a, sections: [Section(key: "s", rows: [Row(key: a, cells: ["text": .text(a)])])])
        var renamed = old
        renamed.sections[0].rows[0].key = b
        #expect(old != renamed)
        let patch = JSONPatch(from: old, to: renamed)
        #expect(try patch.apply(to: old.json) == renamed.json)
        var retexted = old
        retexted.sections[0].rows[0].cells = ["text": .text(b)]
        retexted.title = b
        #expect(old != retexted)
        let textPatch = JSONPatch(from: old, to: retexted)
        #expect(try textPatch.apply(to: old.json) == retexted.json)
        #expect(textPatch.operations.count == 2, "the title and the cell, not the whole row")
        // The updated index keeps one order key per row, each found by its own bytes.
        let list = IndexedList(document: old).updated(to: renamed)
        #expect(list.position(ofRow: b) == 0)
        #expect(list.position(ofRow: a) == nil)
    }

    /// `test` compares strings by code points: a look-alike value fails it.
    @Test(arguments: 0..<lookAlikes.count)
    func testOperationsCompareBytes(_ index: Int) throws {
        let (a, b) = Self.lookAlikes[index]
        let value: JSONValue = ["k": .string(a)]
        let failing = try JSONPatch(parsing: Array(#"[{"op": "test", "path": "/k", "value": "\#(b)"}]"#.utf8))
        let passing = try JSONPatch(parsing: Array(#"[{"op": "test", "path": "/k", "value": "\#(a)"}]"#.utf8))
        #expect(throws: JSONPatchError.self) { try failing.apply(to: value) }
        #expect(try passing.apply(to: value) == value)
        // Member names too: a look-alike name is another member.
        let named = try JSONPatch(parsing: Array(#"[{"op": "test", "path": "/\#(b)", "value": 1}]"#.utf8))
        #expect(throws: JSONPatchError.self) { try named.apply(to: [a: 1]) }
    }
}
