import ListModelTesting
import Testing

@testable import ListModel

/// `Row.canonicalJSONBytes(columns:)` (what the store keeps of every row) writes the same bytes as
/// serializing `Row.json(columns:)`, whether it writes from the packed cells or falls back.
@Suite struct RowCanonicalJSONTests {
    @Test func randomRowsWriteTheSameBytesAsTheirJSONTree() {
        var checked = 0
        for seed in 0..<UInt64(200) {
            var random = RandomListEdits(seed: seed)
            let document = random.document(sections: 3, rowsPerSection: 0...12)
            // The list's columns, and the same columns in reverse (cells then follow another order).
            for columns in [document.columns, document.columns.reversed()] {
                for section in document.sections {
                    for row in section.rows {
                        #expect(
                            row.canonicalJSONBytes(columns: columns) == row.json(columns: columns).serialized(),
                            "seed \(seed), row \(row.key)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 1_000)
    }

    @Test func everyKindStyleAndTheFallbackForCellsWithoutAColumn() {
        let columns = [
            Column(key: "name"), Column(key: "n", kind: .number), Column(key: "site", kind: .link),
            Column(key: "pic", kind: .image), Column(key: "ünï\u{2028}"),
        ]
        let rows = [
            Row(
                key: "a\"b",
                cells: [
                    "name": .text("x\ty \"q\" \u{1}"), "n": .number(-0.5), "site": .link(text: "s", href: "/s?a=1&b"),
                    "pic": .image(src: "/p.png", alt: "", width: 10, height: 2.5), "ünï\u{2028}": .text("é"),
                ],
                href: "/rows/a", style: RowStyle.allCases.last!),
            Row(key: "empty"),
            Row(key: "numbers", cells: ["n": .number(1e22)]),
            Row(key: "stray", cells: ["name": .text("kept"), "zeta": .text("no column"), "alpha": .number(1)]),
        ]
        for row in rows {
            #expect(row.canonicalJSONBytes(columns: columns) == row.json(columns: columns).serialized(), "row \(row.key)")
        }
    }
}
