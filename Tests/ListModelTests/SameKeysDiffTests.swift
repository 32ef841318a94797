import ListModelTesting
import Testing

@testable import ListModel

/// The one-pass diff for documents with the same keys in the same order (`SameKeysDiff`) gives
/// exactly the keyed diff's patch, and is taken only when the keys agree.
@Suite struct SameKeysDiffTests {
    /// `document` with random content edits that keep every key in place: cells set, changed
    /// or removed, `href` and `style` changed, section members and the title changed.
    static func contentEdited(_ document: ListDocument, random: inout RandomListEdits, edits: Int) -> ListDocument {
        var document = document
        let rows = document.sections.flatMap { section in section.rows.indices.map { (section.key, $0) } }
        for _ in 0..<edits {
            switch Int.random(in: 0..<10, using: &random.random) {
            case 0...5 where !rows.isEmpty:
                let (key, row) = rows[Int.random(in: 0..<rows.count, using: &random.random)]
                let section = document.sections.firstIndex { $0.key == key }!
                let column = RandomListEdits.columns.randomElement(using: &random.random)!
                switch Int.random(in: 0..<4, using: &random.random) {
                case 0: document.sections[section].rows[row].cells[column.key] = nil
                case 1: document.sections[section].rows[row].href = random.maybe("/moved/\(random.freshKey())")
                case 2: document.sections[section].rows[row].style = RowStyle.allCases.randomElement(using: &random.random)!
                default: document.sections[section].rows[row].cells[column.key] = random.cell(kind: column.kind)
                }
            case 6...7 where !document.sections.isEmpty:
                let section = Int.random(in: 0..<document.sections.count, using: &random.random)
                if Bool.random(using: &random.random) {
                    document.sections[section].header = random.maybe(random.text())
                } else {
                    document.sections[section].collapsible.toggle()
                }
            case 8:
                document.title = random.text()
            default:
                break
            }
        }
        return document
    }

    /// The document as a server holds it: read from its JSON (cells packed in column order).
    static func reparsed(_ document: ListDocument) -> ListDocument {
        try! ListDocument(json: try! JSONValue(parsing: document.json.serialized()))
    }

    @Test func contentEditsGiveTheKeyedPatch() throws {
        for seed in 0..<UInt64(1500) {
            var random = RandomListEdits(seed: seed)
            var old = random.document(sections: Int.random(in: 0...4, using: &random.random), rowsPerSection: 0...12)
            var new = Self.contentEdited(old, random: &random, edits: Int.random(in: 0...10, using: &random.random))
            // Half the time both sides are read from JSON, as a PUT's are: equal rows then share
            // no storage and are settled by their bytes.
            if seed % 2 == 0 { (old, new) = (Self.reparsed(old), Self.reparsed(new)) }
            #expect(SameKeysDiff.writer(from: old, to: new) != nil, "seed \(seed)")
            let patch = JSONPatch(from: old, to: new)
            #expect(patch.operations == JSONPatch(keyedFrom: old, to: new).operations, "seed \(seed)")
            #expect(try patch.apply(to: old.json) == new.json, "seed \(seed)")
        }
    }

    @Test func otherEditsTakeTheKeyedPath() throws {
        var oneSided = 0
        for seed in 0..<UInt64(1500) {
            var random = RandomListEdits(seed: seed)
            let old = random.document(sections: Int.random(in: 0...4, using: &random.random), rowsPerSection: 0...8)
            let new = random.edited(old, edits: Int.random(in: 0...12, using: &random.random))
            let sameKeys = old.sections.map { [$0.key] + $0.rows.map(\.key) } == new.sections.map { [$0.key] + $0.rows.map(\.key) }
            #expect((SameKeysDiff.writer(from: old, to: new) != nil) == sameKeys, "seed \(seed)")
            if !sameKeys { oneSided += 1 }
            let patch = JSONPatch(from: old, to: new)
            #expect(patch.operations == JSONPatch(keyedFrom: old, to: new).operations, "seed \(seed)")
            #expect(try patch.apply(to: old.json) == new.json, "seed \(seed)")
        }
        #expect(oneSided > 1000)  // reorders, inserts and removals: mostly the keyed path
    }

    @Test func reorderedRowsAndSectionsTakeTheKeyedPath() {
        let a = Row(key: "a", cells: ["name": .text("A")])
        let b = Row(key: "b", cells: ["name": .text("B")])
        let old = ListDocument(
            title: "t", columns: [Column(key: "name")],
            sections: [
                Section(key: "s", rows: [a, b]), Section(key: "u", rows: []),
            ])
        var swappedRows = old
        swappedRows.sections[0].rows = [b, a]
        var swappedSections = old
        swappedSections.sections.swapAt(0, 1)
        for new in [swappedRows, swappedSections] {
            #expect(SameKeysDiff.writer(from: old, to: new) == nil)
            #expect(JSONPatch(from: old, to: new).operations == JSONPatch(keyedFrom: old, to: new).operations)
        }
    }

    /// Invalid documents (repeated keys) still get the keyed diff's patch: a repeated section key
    /// matches once there, so it takes the keyed path; repeated row keys in place match in place.
    @Test func repeatedKeysGiveTheKeyedPatch() {
        let row = Row(key: "dup", cells: ["name": .text("x")])
        var changed = row
        changed.cells["name"] = .text("y")
        let columns = [Column(key: "name")]
        let repeatedSections = ListDocument(
            title: "t", columns: columns,
            sections: [
                Section(key: "s", header: "one", rows: [row]), Section(key: "s", header: "two", rows: []),
            ])
        var renamed = repeatedSections
        renamed.sections[1].header = "three"
        #expect(SameKeysDiff.writer(from: repeatedSections, to: renamed) == nil)
        #expect(
            JSONPatch(from: repeatedSections, to: renamed).operations
                == JSONPatch(keyedFrom: repeatedSections, to: renamed).operations)

        let repeatedRows = ListDocument(title: "t", columns: columns, sections: [Section(key: "s", rows: [row, row])])
        let edited = ListDocument(title: "t", columns: columns, sections: [Section(key: "s", rows: [row, changed])])
        #expect(SameKeysDiff.writer(from: repeatedRows, to: edited) != nil)
        #expect(
            JSONPatch(from: repeatedRows, to: edited).operations
                == JSONPatch(keyedFrom: repeatedRows, to: edited).operations)
    }

    /// Section keys and row keys match byte for byte, as in the keyed diff: a section or row
    /// whose key changed from NFC to NFD is another one, so the keyed path diffs it.
    @Test func keyEqualityFollowsTheKeyedDiff() {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let columns = [Column(key: "name")]
        let old = ListDocument(
            title: "t", columns: columns,
            sections: [
                Section(key: composed, rows: [Row(key: composed, cells: ["name": .text("x")])])
            ])
        var sectionRenamed = old
        sectionRenamed.sections[0].key = decomposed
        sectionRenamed.sections[0].header = "h"
        var rowRenamed = old
        rowRenamed.sections[0].rows[0].key = decomposed
        #expect(SameKeysDiff.writer(from: old, to: sectionRenamed) == nil)
        #expect(SameKeysDiff.writer(from: old, to: rowRenamed) == nil)
        for new in [sectionRenamed, rowRenamed] {
            #expect(JSONPatch(from: old, to: new).operations == JSONPatch(keyedFrom: old, to: new).operations)
        }
    }
}
