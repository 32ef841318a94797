import Testing

@testable import ListModel

@Suite struct ViewCursorTests {
    let document = ListDocument(
        title: "T", columns: [Column(key: "name"), Column(key: "n", kind: .number)],
        sections: [
            Section(
                key: "s", rows: (0..<10).map { Row(key: "r\($0)", cells: ["name": .text("Name \(9 - $0)"), "n": .number(Double($0 % 3))]) })
        ])

    @Test func roundTripsThroughItsText() throws {
        let view = try IndexedList(document: document).view(ListQuery(sort: .init(column: "name")))
        let cursor = try #require(try view.page(after: nil, limit: 3).next)
        #expect(try ViewCursor(decoding: cursor.encoded) == cursor)
        #expect(cursor.rowKey == "r7" && cursor.sectionKey == "s")
        #expect(cursor.encoded.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    @Test func aCursorOfAnotherViewIsAnError() throws {
        let list = IndexedList(document: document)
        let byName = try list.view(ListQuery(sort: .init(column: "name")))
        let byNumber = try list.view(ListQuery(sort: .init(column: "n")))
        let cursor = try #require(try byName.page(after: nil, limit: 2).next)
        #expect(throws: CursorError.otherView) { try byNumber.page(after: cursor, limit: 2) }
        #expect(CursorError.otherView.description.contains("another view"))
        // A list cursor is not a view cursor, and the other way round.
        let listCursor = try #require(list.page(after: nil, limit: 2).next)
        #expect(throws: CursorError.otherView) { try ViewCursor(decoding: listCursor.encoded) }
        #expect(throws: CursorError.otherView) { try Cursor(decoding: cursor.encoded) }
    }

    @Test func alteredTextIsRejected() throws {
        let view = try IndexedList(document: document).view(ListQuery(search: "name"))
        let text = try #require(try view.page(after: nil, limit: 4).next).encoded
        var bytes = Array(text.utf8)
        bytes[bytes.count / 2] = bytes[bytes.count / 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(throws: CursorError.self) { try ViewCursor(decoding: String(decoding: bytes, as: UTF8.self)) }
        #expect(throws: CursorError.empty) { try ViewCursor(decoding: "") }
        #expect(throws: CursorError.self) { try ViewCursor(decoding: String(text.dropLast(2))) }
    }

    /// A sort value longer than a cursor carries still pages through every row once.
    @Test func longSortValuesPageEveryRowOnce() throws {
        let long = String(repeating: "x", count: 600)
        let rows = (0..<6).map { Row(key: "r\($0)", cells: ["name": .text(long + "\($0 % 2)")]) }
        let document = ListDocument(title: "T", columns: [Column(key: "name")], sections: [Section(key: "s", rows: rows)])
        let view = try document.view(ListQuery(sort: .init(column: "name")))
        var seen: [String] = []
        var cursor: ViewCursor?
        repeat {
            let page = try view.page(after: cursor.map { try ViewCursor(decoding: $0.encoded) }, limit: 1)
            seen += view.sections(in: page).flatMap { $0.rows.map(\.key) }
            cursor = page.next
        } while cursor != nil && seen.count < 20
        #expect(Set(seen).count == 6 && seen.count == 6)
    }
}
