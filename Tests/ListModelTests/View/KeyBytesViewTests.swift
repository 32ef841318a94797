import Testing

@testable import ListModel

/// Views keep look-alike keys and texts apart (API.md section 9: texts compare by code point,
/// no normalization; keys by bytes): sorted and paged, every row comes once; a filter on an
/// NFC text does not match its NFD form; a live index updates the row a key names.
@Suite struct KeyBytesViewTests {
    /// One row per look-alike key, each showing its key as its `name` text, in two sections
    /// whose keys are NFC and NFD `é`.
    static func list() -> IndexedList {
        let keys = KeyBytesTests.lookAlikes.flatMap { [$0.0, $0.1] }
        let rows = keys.map { Row(key: $0, cells: ["name": .text($0)]) }
        let half = rows.count / 2
        return IndexedList(
            document: ListDocument(
                title: "t", columns: [Column(key: "name")],
                sections: [
                    Section(key: "\u{E9}", rows: Array(rows[..<half])), Section(key: "e\u{301}", rows: Array(rows[half...])),
                ]))
    }

    /// Every row's key bytes in the order `view` pages them, one row a page.
    static func walk(_ view: ListView) throws -> [[UInt8]] {
        var cursor: ViewCursor?
        var walked: [[UInt8]] = []
        for _ in 0...(view.rowCount + 1) {
            let page = try view.page(after: cursor.map { try ViewCursor(decoding: $0.encoded) }, limit: 1)
            for section in view.sections(in: page) { walked += section.rows.map { Array($0.key.utf8) } }
            guard let next = page.next else { break }
            cursor = next
        }
        return walked
    }

    @Test func sortedPagesHoldEveryLookAlikeOnce() throws {
        let list = Self.list()
        let keys = list.document.sections.flatMap { $0.rows.map { Array($0.key.utf8) } }
        for descending in [false, true] {
            let view = try list.view(ListQuery(sort: .init(column: "name", descending: descending)))
            let walked = try Self.walk(view)
            #expect(walked.count == keys.count)
            #expect(Set(walked) == Set(keys), "every row once, descending: \(descending)")
        }
        // The list's own cursors too: each names its row and section by their bytes.
        var cursor: Cursor?
        var walked: [[UInt8]] = []
        while true {
            let page = list.page(after: cursor.map { try! Cursor(decoding: $0.encoded) }, limit: 1)
            for part in page.parts { walked += part.rows.map { Array(list.document.sections[part.sectionIndex].rows[$0].key.utf8) } }
            guard let next = list.lastCursor(of: page), walked.count < keys.count else { break }
            cursor = next
        }
        #expect(walked == keys)
    }

    /// `eq` on a text compares code points after case folding: NFC and NFD `é` are different
    /// texts; KELVIN SIGN folds to "k" as "K" does (Unicode default case folding, documented).
    @Test func filtersTellNormalizationFormsApart() throws {
        let list = Self.list()
        func matches(_ value: String) throws -> [[UInt8]] {
            let view = try list.view(ListQuery(filters: [.init(column: "name", op: .eq, value: value)]))
            return try Self.walk(view)
        }
        #expect(try matches("\u{E9}") == [Array("\u{E9}".utf8)])
        #expect(try matches("e\u{301}") == [Array("e\u{301}".utf8)])
        #expect(try Set(matches("k")) == [Array("K".utf8), Array("\u{212A}".utf8)])
        // Two queries that differ only in a value's normalization are two views.
        let nfc = ListQuery(search: "\u{E9}"), nfd = ListQuery(search: "e\u{301}")
        #expect(nfc != nfd)
        #expect(Set([nfc, nfd]).count == 2)
        #expect(try list.view(nfc).rowCount == 1)
        #expect(try list.view(nfd).rowCount == 1)
    }

    /// A live view index updated from a write to the NFD row moves that row, not the NFC one.
    @Test func liveIndexUpdatesTheRowItsKeyNames() throws {
        let list = Self.list()
        var index = try ViewIndex(list: list, query: ListQuery(sort: .init(column: "name")))
        // U+4E00 sorts after every other name of the section: the row moves to its end.
        let edit = try list.replacingRow(Row(key: "e\u{301}", cells: ["name": .text("\u{4E00}")]))
        let update = index.update(to: edit.list, touching: edit.writtenRowKeys)
        let changes = update.window(through: nil)
        #expect(changes.moved.map { Array($0.utf8) } == [Array("e\u{301}".utf8)])
        #expect(index.location(ofRow: "e\u{301}")?.index == list.document.sections[0].rows.count - 1)
        #expect(index.location(ofRow: "\u{E9}") != nil)
        #expect(index.rowCount == list.rowCount)
    }
}
