import Testing

@testable import ListModel

/// Row versions beside order keys (`OrderKeyMap`, `IndexedList.stampingVersions`).
@Suite struct RowVersionStampTests {
    func list(rows: Int) -> IndexedList {
        let rowsJSON = (0..<rows).map { #"{"key": "r\#($0)"}"# }.joined(separator: ",")
        return IndexedList(
            document: try! ListDocument(
                json: try! JSONValue(
                    parsing: Array(
                        #"{"title": "T", "sections": [{"key": "a", "rows": [\#(rowsJSON)]}]}"#.utf8))))
    }

    @Test func stampsTheNamedRowsOnlyAndEditsKeepOrDropThem() throws {
        let base = list(rows: 10).stampingVersions(["r1", "r2"], version: 3)
        #expect(base.version(ofRow: "r1") == 3 && base.version(ofRow: "r2") == 3 && base.version(ofRow: "r3") == 0)
        #expect(base.version(ofRow: "nope") == nil)
        // A replaced row keeps its entry (the registry stamps it); a moved row is new in the map.
        let replaced = try base.replacingRow(Row(key: "r1", cells: ["x": .text("y")]))
        #expect(replaced.list.version(ofRow: "r1") == 3)
        let moved = try base.movingRow(key: "r2", to: .after("r9"))
        #expect(moved.writtenRowKeys == ["r2"])
        #expect(moved.list.version(ofRow: "r2") == 0)
        #expect(moved.list.version(ofRow: "r1") == 3, "other rows keep theirs")
        let removed = try base.removingRow(key: "r1")
        #expect(removed.list.version(ofRow: "r1") == nil)
        // The old list is unchanged.
        #expect(base.version(ofRow: "r2") == 3)
    }

    @Test func everyRowAtOnceAndThroughTheOverlay() {
        let big = list(rows: 5_000)
        let all = big.stampingVersions(big.orderKeysByRow.dictionary.keys.sorted().map(\.string), version: 7)
        #expect(Set(all.orderKeysByRow.versions.values) == [7])
        var stepped = all
        for start in stride(from: 0, to: 5_000, by: 100) {
            stepped = stepped.stampingVersions((start..<start + 50).map { "r\($0)" }, version: 8 + start / 100)
        }
        for index in [0, 49, 50, 99, 4_950, 4_999] {
            #expect(stepped.version(ofRow: "r\(index)") == (index % 100 < 50 ? 8 + index / 100 : 7), "r\(index)")
        }
        #expect(all.version(ofRow: "r0") == 7)
    }
}
