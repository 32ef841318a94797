import ListModel

// Test support, outside the library (as swift-nio's NIOTestUtils, hummingbird's
// HummingbirdTesting): the model's tests, the server's tests, the `diff-corpus` tool
// (differential test against Python's jsonpatch) and the benchmarks all draw their documents
// and edits from here, so there is one generator to trust. It uses ListModel's public API only,
// and ListModel does not ship it.

/// A small, fast, seedable random number generator (SplitMix64), for reproducible cases.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random list documents and random edits of them, for testing and measuring the diff.
///
/// Documents are valid (unique keys, cells that fit their columns). Keys are fresh per
/// generator, so a new row or section never reuses a key that existed before.
public struct RandomListEdits {
    /// The random source; the same seed gives the same documents and edits.
    public var random: SplitMix64
    private var serial = 0
    /// Whether new rows get long keys like `row-123-4f0c2a9e` (16 bytes or more, stored out of
    /// line as a feed's ids are) instead of short ones like `r123`.
    public var longRowKeys = false

    public init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// One column of each kind, plus a column whose key needs JSON Pointer escaping.
    public static let columns: [Column] = [
        Column(key: "name", title: "Name"),
        Column(key: "pop", title: "Population", kind: .number),
        Column(key: "site", title: "Site", kind: .link),
        Column(key: "flag", title: "", kind: .image),
        Column(key: "a/b~c", title: "Odd \"key\"", kind: .text),
    ]

    /// A document of `sections` sections with a random number of rows each in `rowsPerSection`.
    public mutating func document(sections: Int, rowsPerSection: ClosedRange<Int>) -> ListDocument {
        var document = ListDocument(title: "List \(freshKey())", columns: Self.columns)
        for _ in 0..<sections {
            let count = Int.random(in: rowsPerSection, using: &random)
            document.sections.append(section(rows: count))
        }
        return document
    }

    /// A section with a fresh key and `rows` fresh rows.
    public mutating func section(rows: Int) -> Section {
        var section = Section(key: "s\(freshKey())", header: maybe(text()), footer: maybe(text()))
        section.rows = ChunkedArray((0..<rows).map { _ in row() })
        return section
    }

    /// A row with a fresh key and random cells for `columns`.
    public mutating func row(columns: [Column] = RandomListEdits.columns) -> Row {
        var row = Row(key: longRowKeys ? longRowKey() : "r\(freshKey())")
        for column in columns where Int.random(in: 0..<4, using: &random) > 0 {
            row.cells[column.key] = cell(kind: column.kind)
        }
        if Int.random(in: 0..<5, using: &random) == 0 { row.href = "/items/\(serial)" }
        return row
    }

    /// A random value fitting a column of `kind`.
    public mutating func cell(kind: ColumnKind) -> CellValue {
        switch kind {
        case .text: return .text(text())
        case .number: return .number(number())
        case .link: return .link(text: text(), href: "https://example.com/\(freshKey())")
        case .image:
            let width: Double? = Bool.random(using: &random) ? Double(Int.random(in: 1...640, using: &random)) : nil
            return .image(src: "/img/\(freshKey()).png", alt: maybe(text()) ?? "", width: width, height: nil)
        }
    }

    /// A short string, sometimes one that needs escaping in JSON.
    public mutating func text() -> String {
        let words = [
            "Lima", "Oslo", "Zürich", "naïve café", "quote \"q\"", "back\\slash", "tab\there",
            "line\nbreak", "emoji 🎉", "sep\u{2028}arator", "a/b~c", "", "<b>&amp;</b>",
        ]
        return words[Int.random(in: 0..<words.count, using: &random)] + String(Int.random(in: 0..<100, using: &random))
    }

    /// A number: mostly integers, sometimes fractions, negatives or large magnitudes.
    public mutating func number() -> Double {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return Double(Int.random(in: -1000...1000, using: &random)) / 10
        case 1: return Double.random(in: -1e22...1e22, using: &random)
        case 2: return 0.1 * Double(Int.random(in: 1...9, using: &random))
        default: return Double(Int.random(in: 0...10_000_000, using: &random))
        }
    }

    /// `value` or `nil`, even odds.
    public mutating func maybe<T>(_ value: T) -> T? { Bool.random(using: &random) ? value : nil }

    /// A fresh key like `row-123-4f0c2a9e`: the serial, then eight random hex digits.
    private mutating func longRowKey() -> String {
        let suffix = String(random.next() & 0xFFFF_FFFF | 0x1_0000_0000, radix: 16).dropFirst()
        return "row-\(freshKey())-\(suffix)"
    }

    /// A key never returned before by this generator.
    public mutating func freshKey() -> String {
        serial += 1
        return String(serial)
    }
}
