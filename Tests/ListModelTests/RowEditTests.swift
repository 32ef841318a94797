import ListModel
import Testing

@Suite struct RowEditTests {
    func sample() -> ListDocument {
        ListDocument(
            title: "T",
            sections: [
                Section(key: "a", rows: [Row(key: "1"), Row(key: "2")]),
                Section(key: "b", rows: [Row(key: "3")]),
            ])
    }

    func keys(_ doc: ListDocument) -> [[String]] { doc.sections.map { $0.rows.map(\.key) } }

    @Test func appendsAtTheEndBeforeAndAfter() throws {
        var doc = sample()
        try doc.insertRows([Row(key: "x"), Row(key: "y")], inSection: "a")
        #expect(keys(doc) == [["1", "2", "x", "y"], ["3"]])
        try doc.insertRows([Row(key: "b1")], inSection: "b", at: .before("3"))
        try doc.insertRows([Row(key: "b2")], inSection: "b", at: .after("3"))
        #expect(keys(doc) == [["1", "2", "x", "y"], ["b1", "3", "b2"]])
        try doc.insertRows([Row(key: "z")], inSection: "a", at: .after("y"))
        #expect(keys(doc)[0].last == "z")
    }

    @Test func refusesDuplicateKeysAnywhereInTheList() {
        var doc = sample()
        #expect(throws: ListEditError.self) { try doc.insertRows([Row(key: "3")], inSection: "a") }
        #expect(throws: ListEditError.self) { try doc.insertRows([Row(key: "n"), Row(key: "n")], inSection: "a") }
        #expect(keys(doc) == keys(sample()), "a refused edit changes nothing")
    }

    @Test func unknownSectionOrAnchorIsNotFound() {
        var doc = sample()
        do {
            try doc.insertRows([Row(key: "n")], inSection: "zz")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.message == "There is no section with key \"zz\".")
        }
        do {
            try doc.insertRows([Row(key: "n")], inSection: "b", at: .after("1"))
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .notFound, "the anchor must be in the named section")
        }
        #expect(keys(doc) == keys(sample()))
    }

    @Test func replacesInPlaceAndRemoves() throws {
        var doc = sample()
        try doc.replaceRow(Row(key: "2", cells: ["text": .text("new")], style: .muted))
        #expect(doc.sections[0].rows[1].cells["text"] == .text("new"))
        #expect(keys(doc) == keys(sample()))
        let removed = try doc.removeRow(key: "1")
        #expect(removed.key == "1")
        #expect(keys(doc) == [["2"], ["3"]])
        #expect(throws: ListEditError.self) { try doc.removeRow(key: "1") }
        #expect(throws: ListEditError.self) { try doc.replaceRow(Row(key: "nope")) }
    }
}

@Suite struct RowValidationTests {
    let columns = [Column(key: "name"), Column(key: "pop", kind: .number)]

    @Test func acceptsAValidRowInCanonicalForm() throws {
        let row = try Row(json: ["key": "it", "cells": ["name": "Italy", "pop": nil] as JSONValue], columns: columns)
        #expect(row == Row(key: "it", cells: ["name": .text("Italy")]), "a null cell is a missing cell")
        #expect(throws: ListDocumentError.self, "cells name declared columns only, even when null") {
            try Row(json: ["key": "it", "cells": ["nothing": nil] as JSONValue], columns: columns)
        }
    }

    @Test func pointsAtTheOffendingMember() {
        #expect(
            throws: ListDocumentError(
                pointer: JSONPointer(tokens: ["cells", "pop"]),
                message: "must be a number for column \"pop\" (kind number), got string")
        ) {
            try Row(json: ["key": "it", "cells": ["pop": "many"]], columns: columns)
        }
        #expect(throws: ListDocumentError.self) { try Row(json: ["cells": [:] as JSONValue], columns: columns) }
        #expect(throws: ListDocumentError.self) { try Row(json: ["key": "x", "href": "javascript:alert(1)"], columns: columns) }
    }

    @Test func arraysPrefixTheIndex() {
        do {
            _ = try Row.rows(json: [["key": "a"], ["key": "b", "bogus": 1]], columns: columns)
            Issue.record("expected an error")
        } catch {
            #expect(error.pointer == JSONPointer(tokens: ["1", "bogus"]))
        }
        #expect(throws: ListDocumentError.self) { try Row.rows(json: ["key": "a"], columns: columns) }
    }
}
