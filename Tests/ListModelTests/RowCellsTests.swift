import ListModel
import Testing

/// `RowCells` behaves like the dictionary it replaced, and keeps an order.
@Suite struct RowCellsTests {
    @Test func literalKeepsItsOrder() {
        let cells: RowCells = ["b": .text("2"), "a": .number(1)]
        #expect(cells.keys == ["b", "a"])
        #expect(cells["a"] == .number(1))
        #expect(cells["c"] == nil)
        #expect(cells.count == 2)
        #expect(Array(cells.map(\.key)) == ["b", "a"])
    }

    @Test func settingReplacesInPlaceAppendsAndRemoves() {
        var cells: RowCells = ["a": .text("1"), "b": .text("2"), "c": .text("3")]
        cells["b"] = .text("two")
        cells["d"] = .text("4")
        cells["a"] = nil
        #expect(cells.keys == ["b", "c", "d"])
        #expect(cells.values == [.text("two"), .text("3"), .text("4")])
        #expect(cells.updateValue(.text("three"), forKey: "c") == .text("3"))
        #expect(cells.removeValue(forKey: "zz") == nil)
        var document = ListDocument(title: "", sections: [Section(key: "s", rows: [Row(key: "r", cells: cells)])])
        document.sections[0].rows[0].cells["x"] = .number(5)
        #expect(document.sections[0].rows[0].cells["x"] == .number(5))
    }

    @Test func dictionaryStyleHelpers() {
        var cells: RowCells = ["a": .text("1"), "b": .number(2), "c": .text("3")]
        #expect(cells["zz", default: .text("none")] == .text("none"))
        cells["n", default: .number(0)] = .number(9)
        #expect(cells["n"] == .number(9))
        let texts: RowCells = cells.filter { $0.value.kind == .text }
        #expect(texts.keys == ["a", "c"])
        let doubled = cells.mapValues { value in
            if case .number(let n) = value { return .number(n * 2) }
            return value
        }
        #expect(doubled["b"] == .number(4) && doubled.keys == cells.keys)
        cells.removeAll(keepingCapacity: true)
        #expect(cells.isEmpty)
    }

    @Test func equalityIgnoresOrder() {
        let one: RowCells = ["a": .text("1"), "b": .number(2)]
        let other: RowCells = ["b": .number(2), "a": .text("1")]
        #expect(one == other)
        #expect(one != ["a": .text("1"), "b": .number(3)])
        #expect(one != ["a": .text("1")])
        #expect(Row(key: "r", cells: one) == Row(key: "r", cells: other))
    }

    @Test func fromADictionaryByKey() {
        let dictionary: [String: CellValue] = ["c": .text("3"), "a": .text("1"), "b": .text("2")]
        #expect(RowCells(dictionary).keys == ["a", "b", "c"])
        #expect(Row(key: "r", cells: dictionary).cells.keys == ["a", "b", "c"])
        #expect(RowCells(dictionary).dictionary == dictionary)
    }

    @Test func readFromJSONInColumnOrderWithoutNulls() throws {
        let json = #"""
            {"title": "T", "columns": [{"key": "a"}, {"key": "b"}, {"key": "c"}],
             "sections": [{"key": "s", "rows": [{"key": "r", "cells": {"c": "3", "b": null, "a": "1"}}]}]}
            """#
        let document = try ListDocument(json: try JSONValue(parsing: Array(json.utf8)))
        let cells = document.sections[0].rows[0].cells
        #expect(cells.keys == ["a", "c"])
        #expect(cells == ["a": .text("1"), "c": .text("3")])
    }

    @Test func descriptionReadsLikeADictionary() {
        #expect(RowCells().description == "[:]")
        #expect((["a": .number(1)] as RowCells).description == "[\"a\": number(1.0)]")
    }

    @Test func isOneReferenceLikeTheDictionaryItReplaced() {
        // The keyed diff compares kept rows byte for byte and reads `MemoryLayout<[String: CellValue]>.size`
        // bytes at `Row.cells`: equal bytes must mean the same storage.
        #expect(MemoryLayout<RowCells>.size == MemoryLayout<[String: CellValue]>.size)
    }
}
