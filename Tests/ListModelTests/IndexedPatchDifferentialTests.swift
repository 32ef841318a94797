import ListModelTesting
import Testing

@testable import ListModel

/// `IndexedList.applying(_:)` against the whole-document path it replaces
/// (`ListDocument(json: patch.apply(to: document.json))`): thousands of random patches of every
/// kind must give the same document or the same error, a published patch that replays to the
/// new document, well-formed order keys, and store writes that bring stored rows up to date.
@Suite struct IndexedPatchDifferentialTests {
    /// What the whole-document path gives: the document or the error.
    private func expected(
        _ patch: JSONPatch, on document: ListDocument,
        limits: ListDocument.Limits
    ) -> Result<ListDocument, AnyError> {
        do {
            return .success(try ListDocument(json: try patch.apply(to: document.json), limits: limits))
        } catch {
            return .failure(AnyError(error))
        }
    }

    @Test(arguments: 0..<8)
    func randomPatchesGiveWhatTheWholeDocumentGives(batch: Int) throws {
        var failures = 0
        var outcomes = (applied: 0, patchErrors: 0, documentErrors: 0)
        for seed in 0..<600 {
            var edits = RandomListEdits(seed: UInt64(batch * 10_000 + seed))
            let document = edits.document(
                sections: seed % 10 == 0 ? Int.random(in: 0...1, using: &edits.random) : Int.random(in: 1...4, using: &edits.random),
                rowsPerSection: seed % 7 == 0 ? 0...2 : 1...6)
            var list = IndexedList(document: document)
            // Some history first, so that order keys are not all evenly spaced.
            if seed % 3 == 0, let section = document.sections.first {
                list = try list.insertingRows([edits.row()], inSection: section.key, at: .end).list
            }
            let patch = edits.patch(of: list.document, maxOperations: seed % 4 == 0 ? 8 : 3)
            var limits = ListDocument.Limits()
            if seed % 17 == 0 { limits.maxRows = max(1, list.rowCount) }
            if seed % 23 == 0 { limits.maxSections = max(1, list.document.sections.count) }
            let want = expected(patch, on: list.document, limits: limits)
            let got = Result { () throws -> IndexedRowEdit in try list.applying(patch, limits: limits) }
            switch (want, got) {
            case (.success(let document), .success(let edit)):
                outcomes.applied += 1
                try check(edit, from: list, equals: document, patch: patch)
            case (.failure(let error), .failure(let other)):
                if error.error is JSONPatchError { outcomes.patchErrors += 1 } else { outcomes.documentErrors += 1 }
                #expect(error == AnyError(other), "seed \(batch * 10_000 + seed): \(patch.jsonText)")
                if error != AnyError(other) { failures += 1 }
            case (.success, .failure(let error)):
                Issue.record("seed \(batch * 10_000 + seed): unexpected error \(error) for \(patch.jsonText)")
                failures += 1
            case (.failure(let error), .success):
                Issue.record("seed \(batch * 10_000 + seed): expected \(error) for \(patch.jsonText)")
                failures += 1
            }
            if failures > 5 { return }
        }
        // The generator reaches every outcome in each batch.
        #expect(outcomes.applied > 150 && outcomes.patchErrors > 50 && outcomes.documentErrors > 50, "\(outcomes)")
    }

    /// The checks of a successful edit beyond the document itself.
    private func check(
        _ edit: IndexedRowEdit, from list: IndexedList, equals document: ListDocument,
        patch: JSONPatch
    ) throws {
        let new = edit.list
        #expect(new.document == document, "\(patch.jsonText)")
        #expect(new.document.json.serialized() == document.json.serialized(), "\(patch.jsonText)")
        // The published patch replays on the old canonical document to the new one.
        let published = try edit.patch.apply(to: list.document.json)
        #expect(published == document.json, "published \(edit.patch.jsonText) for \(patch.jsonText)")
        // Order keys: one per row, increasing, well-formed, and found by row key.
        #expect(new.orderKeys.count == document.rowCount)
        for (index, key) in new.orderKeys.enumerated() {
            #expect(key.isWellFormed)
            if index > 0 { #expect(new.orderKeys[index - 1] < key, "\(patch.jsonText)") }
        }
        #expect(new.orderKeysByRow.count == document.rowCount, "\(patch.jsonText)")
        for position in 0..<new.rowCount {
            #expect(new.position(ofRow: new.row(atPosition: position).key) == position, "\(patch.jsonText)")
        }
        // Stored rows brought up to date by the edit's writes equal the new list's rows.
        var stored = storedRows(of: list)
        for key in edit.removedRowKeys { #expect(stored.removeValue(forKey: key) != nil, "removed \(key) twice") }
        let fresh = storedRows(of: new)
        for key in edit.writtenRowKeys { stored[key] = fresh[key] }
        #expect(stored == fresh, "writes \(edit.writtenRowKeys) removes \(edit.removedRowKeys) for \(patch.jsonText)")
        // Another instance replaying the published patch with the keys this one gave gets the same list.
        var given: [ByteKey: OrderKey] = [:]
        for position in 0..<new.rowCount {
            let key = new.row(atPosition: position).key
            if list.orderKey(ofRow: key) != new.orderKeys[position] { given[ByteKey(key)] = new.orderKeys[position] }
        }
        let replayed = try list.replaying(edit.patch, orderKeys: given)
        #expect(replayed.document == new.document, "replay of \(edit.patch.jsonText)")
        #expect(replayed.orderKeys == new.orderKeys, "replay of \(edit.patch.jsonText)")
        #expect(replayed.orderKeysByRow.count == new.rowCount)
    }

    /// Row key → (section key, order key, canonical JSON), as a store keeps rows.
    private func storedRows(of list: IndexedList) -> [String: StoredRowImage] {
        var rows: [String: StoredRowImage] = [:]
        for position in 0..<list.rowCount {
            let row = list.row(atPosition: position)
            rows[row.key] = StoredRowImage(
                section: list.sectionKey(atPosition: position), orderKey: list.orderKeys[position],
                body: row.json(columns: list.document.columns).serialized())
        }
        return rows
    }

    @Test func aCellEditKeepsEveryOrderKeyAndWritesOneRow() throws {
        var edits = RandomListEdits(seed: 7)
        let list = IndexedList(document: edits.document(sections: 3, rowsPerSection: 5...5))
        let key = list.document.sections[1].rows[2].key
        let patch = try JSONPatch(parsing: Array(#"[{"op":"add","path":"/sections/1/rows/2/cells/pop","value":5.5}]"#.utf8))
        let edit = try list.applying(patch)
        #expect(edit.list.orderKeys == list.orderKeys)
        #expect(edit.writtenRowKeys == [key])
        #expect(edit.removedRowKeys.isEmpty)
        #expect(edit.patch.jsonText.hasSuffix(#""path":"/sections/1/rows/2/cells/pop","value":5.5}]"#))
    }

    @Test func aMoveGivesOnlyTheMovedRowANewKey() throws {
        var edits = RandomListEdits(seed: 8)
        let list = IndexedList(document: edits.document(sections: 2, rowsPerSection: 4...4))
        let moved = list.document.sections[0].rows[1].key
        let patch = JSONPatch(operations: [
            .move(
                from: JSONPointer(tokens: ["sections", "0", "rows", "1"]),
                path: JSONPointer(tokens: ["sections", "1", "rows", "2"]))
        ])
        let edit = try list.applying(patch)
        #expect(edit.writtenRowKeys == [moved])
        #expect(edit.removedRowKeys.isEmpty)
        let kept = zip(list.orderKeys, list.rowKeys).filter { $0.1 != moved }.map(\.0)
        #expect(zip(edit.list.orderKeys, edit.list.rowKeys).filter { $0.1 != moved }.map(\.0) == kept)
        #expect(edit.list.document.sections[1].rows[2].key == moved)
    }

    @Test func aColumnKindChangeIsCheckedAgainstEveryRow() throws {
        let document = ListDocument(
            title: "T", columns: [Column(key: "a"), Column(key: "b")],
            sections: [
                Section(key: "s", rows: [Row(key: "1", cells: ["a": .text("x")]), Row(key: "2", cells: ["b": .text("y")])])
            ])
        let list = IndexedList(document: document)
        let patch = JSONPatch(operations: [.replace(path: JSONPointer(tokens: ["columns", "1", "kind"]), value: "number")])
        #expect(
            throws: ListDocumentError(
                pointer: JSONPointer(tokens: ["sections", "0", "rows", "1", "cells", "b"]),
                message: "must be a number for column \"b\" (kind number), got string")
        ) {
            try list.applying(patch)
        }
    }

    @Test func tooLongOrderKeysReKeyTheList() throws {
        var edits = RandomListEdits(seed: 9)
        let list = IndexedList(document: edits.document(sections: 1, rowsPerSection: 3...3))
        let patch = JSONPatch(operations: [
            .add(
                path: JSONPointer(tokens: ["sections", "0", "rows", "1"]),
                value: edits.row().json(columns: nil))
        ])
        let edit = try list.applying(patch, limits: ListDocument.Limits(), maxKeyLength: 1)
        #expect(Array(edit.list.orderKeys) == OrderKey.spaced(count: 4))
        #expect(edit.writtenRowKeys.count == 4)
    }
}

/// A row as a store holds it.
private struct StoredRowImage: Equatable {
    var section: String
    var orderKey: OrderKey
    var body: [UInt8]
}

/// An error compared by its type and value (the two paths must throw the same).
struct AnyError: Error, Equatable, CustomStringConvertible {
    let error: any Error

    init(_ error: any Error) { self.error = error }

    static func == (lhs: AnyError, rhs: AnyError) -> Bool {
        switch (lhs.error, rhs.error) {
        case let (a as JSONPatchError, b as JSONPatchError): return a == b
        case let (a as ListDocumentError, b as ListDocumentError): return a == b
        default: return false
        }
    }

    var description: String { "\(type(of: error)): \(error)" }
}

extension JSONPatch {
    /// The patch as compact JSON text, for messages.
    var jsonText: String { String(decoding: json.serialized(), as: UTF8.self) }
}
