import Testing

@testable import ListModel

/// Hand-written keyed diffs with the exact operations expected.
@Suite struct DiffTests {
    static let columns = [Column(key: "name"), Column(key: "pop", kind: .number)]

    /// A row `key` with a name and a population.
    static func row(_ key: String, _ pop: Double = 1) -> Row {
        Row(key: key, cells: ["name": .text("Row \(key)"), "pop": .number(pop)])
    }

    /// A section `key` of rows with these keys.
    static func section(_ key: String, _ rows: [String]) -> Section {
        Section(key: key, rows: rows.map { row($0) })
    }

    static func list(_ sections: [Section]) -> ListDocument {
        ListDocument(title: "Cities", columns: columns, sections: sections)
    }

    static let base = list([section("a", ["1", "2", "3", "4"]), section("b", ["5", "6"]), section("c", ["7"])])

    @Test func noChangeIsEmpty() {
        #expect(JSONPatch(from: Self.base, to: Self.base).operations == [])
    }

    @Test func oneCellChangeIsOneReplace() {
        var new = Self.base
        new.sections[1].rows[1].cells["pop"] = .number(68.3)
        #expect(
            JSONPatch(from: Self.base, to: new).operations == [
                .replace(path: "/sections/1/rows/1/cells/pop", value: 68.3)
            ])
    }

    @Test func cellAddedAndRemoved() {
        var new = Self.base
        new.sections[0].rows[0].cells["pop"] = nil
        new.sections[0].rows[1].href = "/x"
        #expect(
            JSONPatch(from: Self.base, to: new).operations == [
                .remove(path: "/sections/0/rows/0/cells/pop"),
                .add(path: "/sections/0/rows/1/href", value: "/x"),
            ])
    }

    @Test func rowWithEveryCellChangedIsReplacedWhole() {
        var new = Self.base
        new.sections[0].rows[2] = Row(key: "3", cells: ["name": .text("Other"), "pop": .number(9)], style: .muted)
        #expect(
            JSONPatch(from: Self.base, to: new).operations == [
                .replace(path: "/sections/0/rows/2", value: new.sections[0].rows[2].json(columns: Self.columns))
            ])
    }

    @Test func rowMovedWithinSectionIsOneMove() {
        let new = Self.list([Self.section("a", ["2", "3", "1", "4"]), Self.section("b", ["5", "6"]), Self.section("c", ["7"])])
        #expect(
            JSONPatch(from: Self.base, to: new).operations == [
                .move(from: "/sections/0/rows/0", path: "/sections/0/rows/2")
            ])
    }

    @Test func rowMovedToTheEndIsOneMove() {
        let new = Self.list([Self.section("a", ["2", "3", "4", "1"]), Self.section("b", ["5", "6"]), Self.section("c", ["7"])])
        #expect(
            JSONPatch(from: Self.base, to: new).operations == [
                .move(from: "/sections/0/rows/0", path: "/sections/0/rows/3")
            ])
    }

    @Test func rowMovedAcrossSectionsIsOneMove() {
        let new = Self.list([Self.section("a", ["1", "2", "4"]), Self.section("b", ["5", "3", "6"]), Self.section("c", ["7"])])
        #expect(
            JSONPatch(from: Self.base, to: new).operations == [
                .move(from: "/sections/0/rows/2", path: "/sections/1/rows/1")
            ])
    }

    @Test func sectionReorderMovesOnlyWhatMust() {
        // c, a, b: one move of c to the front, not two moves of a and b.
        let new = Self.list([Self.section("c", ["7"]), Self.section("a", ["1", "2", "3", "4"]), Self.section("b", ["5", "6"])])
        #expect(JSONPatch(from: Self.base, to: new).operations == [.move(from: "/sections/2", path: "/sections/0")])
        // Reversed: two moves (the minimum for three items).
        let reversed = Self.list([Self.section("c", ["7"]), Self.section("b", ["5", "6"]), Self.section("a", ["1", "2", "3", "4"])])
        let operations = JSONPatch(from: Self.base, to: reversed).operations
        #expect(operations.count == 2)
        #expect(operations.allSatisfy { if case .move = $0 { true } else { false } })
    }

    @Test func insertsAtStartMiddleAndEnd() {
        let new = Self.list([
            Self.section("a", ["n1", "1", "2", "n2", "3", "4", "n3"]), Self.section("b", ["5", "6"]), Self.section("c", ["7"]),
        ])
        let row = { (key: String) in Self.row(key).json(columns: Self.columns) }
        #expect(
            JSONPatch(from: Self.base, to: new).operations == [
                .add(path: "/sections/0/rows/0", value: row("n1")),
                .add(path: "/sections/0/rows/3", value: row("n2")),
                .add(path: "/sections/0/rows/6", value: row("n3")),
            ])
    }

    @Test func deletesGoBottomUp() {
        let new = Self.list([Self.section("a", ["2", "4"]), Self.section("c", ["7"])])
        #expect(
            JSONPatch(from: Self.base, to: new).operations == [
                .remove(path: "/sections/1"),
                .remove(path: "/sections/0/rows/2"),
                .remove(path: "/sections/0/rows/0"),
            ])
    }

    @Test func newSectionCarriesItsNewRowsAndKeptRowsMoveIn() {
        let new = Self.list([
            Self.section("a", ["1", "2"]), Self.section("n", ["x", "3", "y"]), Self.section("b", ["5", "6"]),
            Self.section("c", ["7", "4"]),
        ])
        let added = Section(key: "n", rows: [Self.row("x"), Self.row("y")]).json(columns: Self.columns)
        #expect(
            JSONPatch(from: Self.base, to: new).operations == [
                .add(path: "/sections/1", value: added),
                .move(from: "/sections/0/rows/2", path: "/sections/1/rows/1"),
                .move(from: "/sections/0/rows/2", path: "/sections/3/rows/1"),
            ])
    }

    @Test func goneSectionLingersUntilItsKeptRowsLeave() {
        // Section b is gone, but its row 6 moves to c; row 5 goes with b.
        let new = Self.list([Self.section("a", ["1", "2", "3", "4"]), Self.section("c", ["6", "7"])])
        #expect(
            JSONPatch(from: Self.base, to: new).operations == [
                .move(from: "/sections/1/rows/1", path: "/sections/2/rows/0"),
                .remove(path: "/sections/1"),
            ])
    }

    @Test func sectionAndListMembersChange() {
        var new = Self.base
        new.title = "Towns"
        new.emptyText = "Nothing"
        new.sections[2].header = "Header"
        new.sections[0].collapsible = true
        #expect(
            JSONPatch(from: Self.base, to: new).operations == [
                .replace(path: "/sections/0/collapsible", value: true),
                .replace(path: "/sections/2/header", value: "Header"),
                .replace(path: "/title", value: "Towns"),
                .add(path: "/emptyText", value: "Nothing"),
            ])
    }

    @Test func columnsChangedWholesaleAreOneReplace() {
        var new = Self.base
        new.columns = [Column(key: "name", title: "City"), Column(key: "pop", kind: .number), Column(key: "x")]
        #expect(
            JSONPatch(from: Self.base, to: new).operations == [
                .replace(path: "/columns", value: .array(new.columns.map(\.json)))
            ])
        var retitled = Self.base
        retitled.columns[1].title = "Population"
        #expect(
            JSONPatch(from: Self.base, to: retitled).operations == [
                .replace(path: "/columns/1/title", value: "Population")
            ])
    }

    @Test func cellKeysAreEscapedInPaths() {
        let columns = [Column(key: "a/b~c")]
        let old = ListDocument(title: "", columns: columns, sections: [Section(key: "s", rows: [Row(key: "r")])])
        var new = old
        new.sections[0].rows[0].cells["a/b~c"] = .text("v")
        let operations = JSONPatch(from: old, to: new).operations
        #expect(operations == [.add(path: JSONPointer(tokens: ["sections", "0", "rows", "0", "cells", "a/b~c"]), value: "v")])
        if case .add(let path, _) = operations.first { #expect(path.description == "/sections/0/rows/0/cells/a~1b~0c") }
    }

    @Test func sectionWithAllRowsReplacedIsOneReplace() {
        var new = Self.base
        new.sections[0] = Self.section("a", ["x1", "x2", "x3"])
        #expect(
            JSONPatch(from: Self.base, to: new).operations == [
                .replace(path: "/sections/0", value: new.sections[0].json(columns: Self.columns))
            ])
        // One new row in an empty section stays an add.
        let emptied = Self.list([Self.section("a", []), Self.section("b", ["5", "6"]), Self.section("c", ["7"])])
        var refilled = emptied
        refilled.sections[0].rows = [Self.row("y")]
        #expect(
            JSONPatch(from: emptied, to: refilled).operations == [
                .add(path: "/sections/0/rows/0", value: Self.row("y").json(columns: Self.columns))
            ])
    }

    @Test func everythingReplacedIsOneRootReplace() {
        let new = ListDocument(title: "Other", columns: Self.columns, sections: [Self.section("z", ["9"])])
        #expect(JSONPatch(from: Self.base, to: new).operations == [.replace(path: .root, value: new.json)])
    }
}
