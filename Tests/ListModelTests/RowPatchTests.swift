import ListModelTesting
import Testing

@testable import ListModel

/// A PATCH that stays inside one row is applied to that row alone (`IndexedList.rowEdit`);
/// these check it against applying the patch to the whole document and reading it again.
@Suite struct RowPatchTests {
    /// A random patch on the row at (section, index): mostly valid in-row edits, sometimes
    /// ones that fail, change the key, or reach another row. `staysInRow` says whether every
    /// operation stays inside that row and leaves its key alone.
    private func randomPatch(
        row: Row, section: Int, index: Int, in document: ListDocument,
        _ edits: inout RandomListEdits
    ) -> (patch: JSONPatch, staysInRow: Bool) {
        let base = ["sections", String(section), "rows", String(index)]
        func pointer(_ tail: String...) -> JSONPointer { JSONPointer(tokens: base + tail) }
        var operations: [JSONPatchOperation] = []
        var rowsTouched: Set<Int> = []
        var renamed = false
        for _ in 0..<Int.random(in: 1...4, using: &edits.random) {
            let column = document.columns[Int.random(in: 0..<document.columns.count, using: &edits.random)]
            let choice = Int.random(in: 0..<12, using: &edits.random)
            rowsTouched.insert(choice == 11 ? index + 1 : index)
            switch choice {
            case 0, 1, 2: operations.append(.replace(path: pointer("cells", column.key), value: edits.cell(kind: column.kind).json))
            case 3, 4: operations.append(.add(path: pointer("cells", column.key), value: edits.cell(kind: column.kind).json))
            case 5: operations.append(.remove(path: pointer("cells", column.key)))  // fails when absent
            case 6:
                operations.append(
                    .replace(
                        path: pointer("style"),
                        value: .string(["muted", "highlight", "default", "loud"].randomElement(using: &edits.random)!)))
            case 7:
                operations.append(
                    .add(
                        path: pointer("href"),
                        value: .string(["/x/1", "https://e.com", "javascript:alert(1)"].randomElement(using: &edits.random)!)))
            case 8: operations.append(.test(path: pointer("key"), value: .string(Bool.random(using: &edits.random) ? row.key : "other")))
            case 9: operations.append(.replace(path: pointer("cells", "pop"), value: "not a number"))  // invalid
            case 10:
                operations.append(.replace(path: pointer("key"), value: "renamed"))
                renamed = true
            default:
                let other = ["sections", String(section), "rows", String(index + 1), "cells", "name"]
                operations.append(.add(path: JSONPointer(tokens: other), value: "elsewhere"))
            }
        }
        return (JSONPatch(operations: operations), rowsTouched.count == 1 && !renamed)
    }

    @Test func oneRowPatchesGiveWhatTheWholeDocumentWouldGive() throws {
        var edits = RandomListEdits(seed: 42)
        var fast = 0, whole = 0, refused = 0
        for _ in 0..<600 {
            let document = edits.document(sections: 3, rowsPerSection: 0...4)
            let list = IndexedList(document: document)
            let located = document.sections.indices.flatMap { s in document.sections[s].rows.indices.map { (s, $0) } }
            guard let (section, index) = located.randomElement(using: &edits.random) else { continue }
            let row = document.sections[section].rows[index]
            let (patch, staysInRow) = randomPatch(row: row, section: section, index: index, in: document, &edits)
            let expected = try? ListDocument(json: patch.apply(to: document.json))
            if let edit = list.rowEdit(applying: patch) {
                fast += 1
                #expect(staysInRow)
                #expect(edit.list.document == expected)
                #expect(edit.list.document.json.serialized() == expected?.json.serialized())
                #expect(try edit.patch.apply(to: document.json) == expected?.json)
                #expect(edit.list.orderKeys == list.orderKeys)
            } else if expected == nil {
                refused += 1  // the whole-document path gives the error
            } else {
                whole += 1
                #expect(!staysInRow, "a one-row patch that applies went the whole way: \(patch.json.serializedText)")
            }
        }
        #expect(fast > 100 && whole > 20 && refused > 100, "fast \(fast), whole \(whole), refused \(refused)")
    }

    @Test func pointersThatAreNotStrictlyInsideOneRowGoTheWholeWay() throws {
        let document = ListDocument(
            title: "T", columns: [Column(key: "name", title: "Name")],
            sections: [
                Section(key: "a", rows: [Row(key: "r1", cells: ["name": .text("one")]), Row(key: "r2")])
            ])
        let list = IndexedList(document: document)
        func edit(_ text: String) throws -> IndexedRowEdit? {
            list.rowEdit(applying: try JSONPatch(parsing: Array(text.utf8)))
        }
        #expect(try edit(#"[{"op":"replace","path":"/sections/0/rows/0/cells/name","value":"uno"}]"#) != nil)
        #expect(try edit(#"[{"op":"replace","path":"/sections/0/rows/0","value":{"key":"r1"}}]"#) == nil)  // the row itself
        #expect(try edit(#"[{"op":"replace","path":"/sections/0/rows/00/cells/name","value":"x"}]"#) == nil)  // not an index
        #expect(try edit(#"[{"op":"add","path":"/sections/0/rows/-/cells/name","value":"x"}]"#) == nil)
        #expect(try edit(#"[{"op":"replace","path":"/sections/0/rows/2/cells/name","value":"x"}]"#) == nil)  // no such row
        #expect(try edit(#"[{"op":"replace","path":"/sections/1/rows/0/cells/name","value":"x"}]"#) == nil)  // no such section
        // From another row:
        #expect(try edit(#"[{"op":"copy","from":"/sections/0/rows/1/cells","path":"/sections/0/rows/0/cells"}]"#) == nil)
        #expect(try edit(#"[{"op":"replace","path":"/title","value":"x"}]"#) == nil)
        #expect(try edit("[]") == nil)
        // A move inside the row: the name becomes the row's (relative) link.
        let moved = try #require(try edit(#"[{"op":"move","from":"/sections/0/rows/0/cells/name","path":"/sections/0/rows/0/href"}]"#))
        #expect(moved.list.document.sections[0].rows[0].href == "one")
        #expect(moved.list.document.sections[0].rows[0].cells.isEmpty)
    }
}
