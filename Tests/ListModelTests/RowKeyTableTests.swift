import ListModelTesting
import Testing

@testable import ListModel

/// The row-key check of `ListDocument(json:)` (`RowKeyTable`) finds every repeated key, by its
/// bytes, and names its first place; and cells find their columns by bytes.
@Suite struct RowKeyTableTests {
    /// A document of sections holding rows with these keys, as JSON.
    static func document(_ sections: [[String]], cells: JSONValue = .object(JSONObject())) -> JSONValue {
        .object(
            JSONObject(uniqueMembers: [
                ("title", "T"),
                ("columns", [["key": "name"], ["key": "n", "kind": "number"], ["key": "caf\u{E9}"]]),
                (
                    "sections",
                    .array(
                        sections.enumerated().map { index, keys in
                            .object(
                                JSONObject(uniqueMembers: [
                                    ("key", .string("s\(index)")),
                                    (
                                        "rows",
                                        .array(keys.map { .object(JSONObject(uniqueMembers: [("key", .string($0)), ("cells", cells)])) })
                                    ),
                                ]))
                        })
                ),
            ]))
    }

    static func error(_ json: JSONValue) -> String? {
        do {
            _ = try ListDocument(json: json)
            return nil
        } catch {
            return error.description
        }
    }

    /// Random key sequences with a repeated key or none: the same first error as a
    /// `Dictionary` of places would give.
    @Test func repeatedKeysAreFoundWithTheirFirstPlace() {
        var random = SplitMix64(seed: 12)
        for round in 0..<300 {
            let sectionCount = Int.random(in: 1...4, using: &random)
            var sections: [[String]] = (0..<sectionCount).map { section in
                (0..<Int.random(in: 0...40, using: &random)).map { "r\(section)-\($0)" }
            }
            let total = sections.reduce(0) { $0 + $1.count }
            if total > 1 && round % 3 != 0 {
                // Copy one key over a later one (or several), anywhere in the list.
                let flat = sections.enumerated().flatMap { section, keys in keys.indices.map { (section, $0) } }
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let from = Int.random(in: 0..<flat.count - 1, using: &random)
                    let to = Int.random(in: from + 1..<flat.count, using: &random)
                    sections[flat[to].0][flat[to].1] = sections[flat[from].0][flat[from].1]
                }
            }
            var expected: String?
            var seen: [String: (Int, Int)] = [:]
            search: for (section, keys) in sections.enumerated() {
                for (row, key) in keys.enumerated() {
                    if let first = seen[key] {
                        expected =
                            "/sections/\(section)/rows/\(row)/key: duplicate row key \"\(key)\", also at /sections/\(first.0)/rows/\(first.1)/key"
                        break search
                    }
                    seen[key] = (section, row)
                }
            }
            #expect(Self.error(Self.document(sections)) == expected, "round \(round)")
        }
    }

    /// Keys are checked in batches after their rows are read: a repeated key is still the
    /// first error when another error follows it (a bad cell, a repeated section key, the row
    /// limit), and not when the other comes first.
    @Test func theFirstErrorInDocumentOrderWins() {
        let rows = (0..<200).map { "k\($0)" }
        func document(_ sections: [[JSONValue]], sectionKeys: [String]? = nil) -> JSONValue {
            .object(
                JSONObject(uniqueMembers: [
                    ("title", "T"),
                    (
                        "sections",
                        .array(
                            sections.enumerated().map { index, rows in
                                .object(
                                    JSONObject(uniqueMembers: [
                                        ("key", .string(sectionKeys?[index] ?? "s\(index)")), ("rows", .array(rows)),
                                    ]))
                            })
                    ),
                ]))
        }
        func row(_ key: String, bad: Bool = false) -> JSONValue {
            .object(JSONObject(uniqueMembers: [("key", .string(key)), ("cells", bad ? ["nope": 1] : [:])]))
        }
        var section = rows.map { row($0) }
        section[150] = row("k3")
        var withBadCell = section
        withBadCell[170] = row("x", bad: true)
        #expect(
            Self.error(document([withBadCell]))
                == "/sections/0/rows/150/key: duplicate row key \"k3\", also at /sections/0/rows/3/key")
        withBadCell[120] = row("x", bad: true)
        #expect(Self.error(document([withBadCell])) == "/sections/0/rows/120/cells/nope: no column has the key \"nope\"")
        #expect(
            Self.error(document([section, []], sectionKeys: ["s", "s"]))
                == "/sections/0/rows/150/key: duplicate row key \"k3\", also at /sections/0/rows/3/key")
        #expect(
            Self.error(document([Array(section.prefix(100)), [], [row("k7")]], sectionKeys: ["s", "s", "t"]))
                == "/sections/1/key: duplicate section key \"s\", also at /sections/0/key")
        #expect(
            Self.error(document([Array(section.prefix(10)), [row("k2")], [row("q")]], sectionKeys: ["a", "b", "a"]))
                == "/sections/1/rows/0/key: duplicate row key \"k2\", also at /sections/0/rows/2/key")
        #expect(
            throws: ListDocumentError(
                pointer: JSONPointer(tokens: ["sections", "0", "rows", "150", "key"]),
                message: "duplicate row key \"k3\", also at /sections/0/rows/3/key")
        ) {
            try ListDocument(json: document([section]), limits: ListDocument.Limits(maxRows: 180))
        }
        #expect(
            throws: ListDocumentError(
                pointer: JSONPointer(tokens: ["sections", "0", "rows", "120"]),
                message: "the list may hold at most 120 rows")
        ) {
            try ListDocument(json: document([section]), limits: ListDocument.Limits(maxRows: 120))
        }
    }

    /// Past the size reserved from the sections' row counts the table grows (here: always,
    /// since the reader reserves the exact count; so use the table directly).
    @Test func theTableGrowsAndKeepsPlaces() {
        var table = RowKeyTable()
        table.reserveCapacity(4)
        for row in 0..<10_000 { #expect(table.updateValue((row / 100, row % 100), forKey: "k\(row)") == nil) }
        #expect(table["k9999"]! == (99, 99))
        #expect(table["k0"]! == (0, 0))
        #expect(table["k10000"] == nil)
        #expect(table.updateValue((7, 7), forKey: "k5050")! == (50, 50))
        #expect(table["k5050"]! == (7, 7))
    }

    /// Canonically equivalent keys with other bytes are different keys (API.md "Keys"): NFC
    /// and NFD forms, and a non-ASCII key that `String` calls equal to an ASCII one (KELVIN
    /// SIGN and "K"); the same bytes repeated are still found, non-ASCII or not.
    @Test func canonicallyEquivalentKeysAreDifferentKeys() {
        #expect(Self.error(Self.document([["a", "caf\u{E9}"], ["cafe\u{301}"]])) == nil)
        #expect(Self.error(Self.document([["K", "x"], ["y", "\u{212A}"]])) == nil)
        #expect(Self.error(Self.document([["\u{212A}", "x"], ["K"]])) == nil)
        #expect(
            Self.error(Self.document([["a", "cafe\u{301}"], ["caf\u{E9}", "cafe\u{301}"]]))
                == "/sections/1/rows/1/key: duplicate row key \"cafe\u{301}\", also at /sections/0/rows/1/key")
        #expect(
            Self.error(Self.document([["\u{212A}", "x"], ["K", "\u{212A}"]]))
                == "/sections/1/rows/1/key: duplicate row key \"\u{212A}\", also at /sections/0/rows/0/key")
        #expect(
            Self.error(Self.document([["a", "b"], ["c", "\u{E9}", "d"], ["e", "b"]]))
                == "/sections/2/rows/1/key: duplicate row key \"b\", also at /sections/0/rows/1/key")
        #expect(Self.error(Self.document([["a", "\u{E9}", "b"], ["e\u{301}x", "c"]])) == nil)
    }

    /// Cells find their columns by bytes among the columns after the last one found, else by
    /// bytes among all: out-of-order names; a canonically equivalent name is an unknown one.
    @Test func cellsFindTheirColumns() throws {
        let inOrder = try ListDocument(json: Self.document([["a"]], cells: ["name": "x", "caf\u{E9}": "y"]))
        #expect(Array(inOrder.sections[0].rows[0].cells.keys) == ["name", "caf\u{E9}"])
        let reordered = try ListDocument(json: Self.document([["a"]], cells: ["caf\u{E9}": "y", "n": 2, "name": "x"]))
        #expect(Array(reordered.sections[0].rows[0].cells.keys) == ["name", "n", "caf\u{E9}"])
        #expect(
            Self.error(Self.document([["a"]], cells: ["name": "x", "cafe\u{301}": "y"]))
                == "/sections/0/rows/0/cells/cafe\u{301}: no column has the key \"cafe\u{301}\"")
        #expect(
            Self.error(Self.document([["a"]], cells: ["name": "x", "area": 1]))
                == "/sections/0/rows/0/cells/area: no column has the key \"area\"")
    }
}
