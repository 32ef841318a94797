import HTMLRenderer
import ListModel
import Testing

/// Escaping works on 16-byte blocks with a padded tail: specials and multi-byte characters at
/// every offset around the block edges, dense escapes that outgrow the buffer, and long text.
@Suite struct EscapingBlockTests {
    static let specials = [
        "&", "<", ">", "\"", "'", "\r", "\u{0}", "\u{2028}", "\u{2029}", "\u{2027}", "é", "東", "\u{1F600}",
    ]

    func escaped(_ text: String, capacity: Int = 4096) -> String {
        var writer = HTMLWriter(capacity: capacity)
        writer.text(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test(arguments: specials)
    func specialAtEveryOffsetOfEveryLength(special: String) {
        for length in 1...50 {
            for offset in 0..<length {
                let text = String(repeating: "a", count: offset) + special + String(repeating: "b", count: length - offset - 1)
                let expected = EscapingReferenceTests.reference(text)
                #expect(escaped(text) == expected, "\(special.debugDescription) at \(offset) of \(length)")
            }
        }
    }

    @Test func lineSeparatorSplitAcrossABlockEdgeIsStillEscaped() {
        // E2 80 A8 starting at bytes 14, 15 and 16: the sequence runs into the next block.
        for offset in 12...18 {
            let text = String(repeating: "x", count: offset) + "\u{2028}" + String(repeating: "y", count: 20)
            #expect(escaped(text) == String(repeating: "x", count: offset) + "&#x2028;" + String(repeating: "y", count: 20))
        }
        // E2 as the last byte of a block, not followed by 80 A8/A9: copied as it is.
        let dot = String(repeating: "x", count: 15) + "\u{2027}"
        #expect(escaped(dot) == dot)
    }

    @Test func denseEscapesGrowTheBuffer() {
        let text = String(repeating: "\"", count: 5_000) + "<tail>"
        #expect(escaped(text, capacity: 64) == String(repeating: "&quot;", count: 5_000) + "&lt;tail&gt;")
        var writer = HTMLWriter(capacity: 64)
        writer.raw("<p>")
        writer.text("&'")
        writer.text(String(repeating: "a&b", count: 1_000))
        writer.raw("</p>")
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "<p>&amp;&#39;" + String(repeating: "a&amp;b", count: 1_000) + "</p>")
    }

    @Test func plainAndNonASCIITextIsCopiedAsItIs() {
        for text in [
            "", "a", "plain text", String(repeating: "abcdefgh", count: 100), "Zürich Genève 東京 \u{1F600}",
            String(repeating: "é東", count: 33),
        ] {
            #expect(escaped(text) == text)
        }
    }

    @Test func everyEscapeInOneBlock() {
        #expect(escaped("&<>\"'\r\u{0}\u{2028}\u{2029}") == "&amp;&lt;&gt;&quot;&#39;&#13;\u{FFFD}&#x2028;&#x2029;")
        #expect(escaped("a&b<c>d\"e'f\rg\u{0}h") == "a&amp;b&lt;c&gt;d&quot;e&#39;f&#13;g\u{FFFD}h")
    }
}

/// Cells are matched to columns by key whatever the order, form or length of the keys.
@Suite struct CellMatchingTests {
    let renderer = HTMLRenderer()

    func rowHTML(_ row: Row, columns: [Column]) -> String {
        String(decoding: renderer.row(row, in: ListDocument(title: "", columns: columns)), as: UTF8.self)
    }

    @Test func cellsInAnyOrderLandInTheirColumns() {
        let columns = [Column(key: "a"), Column(key: "b", kind: .number), Column(key: "c")]
        let expected = "<tr data-row=\"r\"><td>1</td><td class=\"num\">2</td><td>3</td></tr>"
        #expect(rowHTML(Row(key: "r", cells: ["a": .text("1"), "b": .number(2), "c": .text("3")]), columns: columns) == expected)
        #expect(rowHTML(Row(key: "r", cells: ["c": .text("3"), "a": .text("1"), "b": .number(2)]), columns: columns) == expected)
        let fromDictionary: [String: CellValue] = ["b": .number(2), "c": .text("3"), "a": .text("1")]
        #expect(rowHTML(Row(key: "r", cells: fromDictionary), columns: columns) == expected)
    }

    @Test func missingAndExtraCells() {
        let columns = [Column(key: "a"), Column(key: "b")]
        #expect(
            rowHTML(Row(key: "r", cells: ["zz": .text("x"), "b": .text("2")]), columns: columns)
                == "<tr data-row=\"r\"><td></td><td>2</td></tr>")
    }

    @Test func longAndNonASCIIKeysMatch() {
        let long = String(repeating: "long-column-key-", count: 4)
        let columns = [Column(key: long), Column(key: "naïve"), Column(key: "東京")]
        let row = Row(key: "r", cells: ["東京": .text("3"), "naïve": .text("2"), long: .text("1")])
        #expect(rowHTML(row, columns: columns) == "<tr data-row=\"r\"><td>1</td><td>2</td><td>3</td></tr>")
    }

    @Test func cellsMatchTheirColumnByBytes() {
        // "é" precomposed in one column, decomposed in the other: two columns (API.md "Keys"),
        // each showing the cell with its own bytes, not the other's.
        let columns = [Column(key: "caf\u{E9}"), Column(key: "cafe\u{301}")]
        #expect(
            rowHTML(Row(key: "r", cells: ["cafe\u{301}": .text("x")]), columns: columns) == "<tr data-row=\"r\"><td></td><td>x</td></tr>")
        #expect(rowHTML(Row(key: "r", cells: ["caf\u{E9}": .text("y")]), columns: columns) == "<tr data-row=\"r\"><td>y</td><td></td></tr>")
    }

    @Test func manyColumns() {
        let columns = (0..<40).map { Column(key: "c\($0)") }
        let cells = RowCells(uniqueKeysWithValues: (0..<40).reversed().map { ("c\($0)", CellValue.text("v\($0)")) })
        let html = rowHTML(Row(key: "r", cells: cells), columns: columns)
        #expect(html == "<tr data-row=\"r\">" + (0..<40).map { "<td>v\($0)</td>" }.joined() + "</tr>")
    }
}
