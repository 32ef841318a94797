import HTTPServer
import ListModel
import ListServerTesting
import ListStore
import Testing

@testable import ListServerHTTP
@testable import ListService

/// Row and section keys in URLs name the row or section with exactly those bytes (API.md
/// "Keys"): `é` precomposed (NFC, `%C3%A9`) and decomposed (NFD, `e%CC%81`) are two rows,
/// each read, replaced, merged, moved and deleted by its own URL; a body key must have the
/// URL's bytes; the store gives both back.
@Suite("Keys compare by bytes, in process")
struct KeyBytesRoutesTests {
    static let nfc = "\u{E9}", nfd = "e\u{301}"
    static let nfcURL = "%C3%A9", nfdURL = "e%CC%81"
    static let merge: HTTPHeaders = ["Content-Type": "application/merge-patch+json"]
    let client: RouterClient

    init() throws {
        client = RouterClient(context: try .inMemory())
        let put = try client.put(
            "/lists/k",
            json: """
                {"title": "K", "columns": [{"key": "\(Self.nfc)"}, {"key": "\(Self.nfd)"}], "sections": [
                  {"key": "\(Self.nfc)", "rows": [{"key": "\(Self.nfc)", "cells": {"\(Self.nfc)": "one"}}]},
                  {"key": "\(Self.nfd)", "rows": [{"key": "\(Self.nfd)", "cells": {"\(Self.nfd)": "two"}}]}]}
                """)
        #expect(put.status == 201, "NFC and NFD keys are different keys: \(put.body)")
    }

    /// The list's rows as (section key bytes, row key bytes, cells).
    func listRows() throws -> [([UInt8], [UInt8], JSONValue)] {
        let json = try JSONValue(parsing: Array(client.get("/lists/k", accept: "application/json").body.utf8))
        return try ListDocument(json: json).sections.flatMap { section in
            section.rows.map { (Array(section.key.utf8), Array($0.key.utf8), $0.json["/cells"] ?? .null) }
        }
    }

    @Test func eachURLReadsItsOwnRow() throws {
        let nfc = try JSONValue(parsing: Array(client.get("/lists/k/rows/\(Self.nfcURL)").body.utf8))
        let nfd = try JSONValue(parsing: Array(client.get("/lists/k/rows/\(Self.nfdURL)").body.utf8))
        #expect(nfc["/key"] == .string(Self.nfc))
        #expect(nfc["/cells"] == [Self.nfc: "one"])
        #expect(nfd["/key"] == .string(Self.nfd))
        #expect(nfd["/section"] == .string(Self.nfd))
        #expect(try client.get("/lists/k/rows/%E2%84%AA").status == 404, "KELVIN SIGN is not K, nor any row")
    }

    @Test func writesReachExactlyTheNamedRow() throws {
        #expect(try client.put("/lists/k/rows/\(Self.nfcURL)", json: #"{"cells": {"\#(Self.nfd)": "put"}}"#).status == 200)
        #expect(
            try client.send(.patch, "/lists/k/rows/\(Self.nfdURL)", #"{"cells": {"\#(Self.nfc)": "merged"}}"#, headers: Self.merge).status
                == 200)
        var rows = try listRows()
        #expect(rows.map(\.1) == [Array(Self.nfc.utf8), Array(Self.nfd.utf8)])
        #expect(rows[0].2 == [Self.nfd: "put"])
        #expect(rows[1].2 == [Self.nfc: "merged", Self.nfd: "two"])
        // Move the NFD row into the NFC section after the NFC row, then delete the NFC row.
        #expect(try client.send(.post, "/lists/k/rows/\(Self.nfdURL)/move?after=\(Self.nfcURL)").status == 200)
        rows = try listRows()
        #expect(rows.map(\.0) == [Array(Self.nfc.utf8), Array(Self.nfc.utf8)])
        #expect(rows.map(\.1) == [Array(Self.nfc.utf8), Array(Self.nfd.utf8)])
        #expect(try client.send(.delete, "/lists/k/rows/\(Self.nfcURL)").status == 204)
        rows = try listRows()
        #expect(rows.map(\.1) == [Array(Self.nfd.utf8)])
        #expect(try client.send(.delete, "/lists/k/rows/\(Self.nfcURL)").status == 404)
        // A section is named by its bytes too: appending to the NFD section lands there.
        #expect(try client.post("/lists/k/sections/\(Self.nfdURL)/rows", json: #"[{"key": "\#(Self.nfc)"}]"#).status == 200)
        #expect(try listRows().map(\.0) == [Array(Self.nfc.utf8), Array(Self.nfd.utf8)])
    }

    @Test func aBodyKeyMustHaveTheURLsBytes() throws {
        for (url, other) in [(Self.nfcURL, Self.nfd), (Self.nfdURL, Self.nfc)] {
            let put = try client.put("/lists/k/rows/\(url)", json: #"{"key": "\#(other)"}"#)
            #expect(put.status == 422)
            #expect(put.body.contains("the URL names"))
            let merged = try client.send(.patch, "/lists/k/rows/\(url)", #"{"key": "\#(other)"}"#, headers: Self.merge)
            #expect(merged.status == 422)
        }
        #expect(try listRows().map(\.2) == [[Self.nfc: "one"], [Self.nfd: "two"]], "nothing changed")
    }

    /// A JSON Patch `test` of a look-alike value fails (409), and changes nothing.
    @Test func testOperationsCompareBytes() throws {
        let failed = try client.patch("/lists/k", #"[{"op": "test", "path": "/sections/0/key", "value": "\#(Self.nfd)"}]"#)
        #expect(failed.status == 409)
        let passed = try client.patch(
            "/lists/k",
            #"[{"op": "test", "path": "/sections/0/key", "value": "\#(Self.nfc)"}, {"op": "replace", "path": "/title", "value": "\#(Self.nfd)"}]"#
        )
        #expect(passed.status == 200)
    }

    /// The store keeps both rows with their own order keys and sections; reading back gives the
    /// same document and order keys.
    @Test func theStoreGivesBothRowsBack() throws {
        let store = try SQLiteStore(path: ":memory:")
        let document = try ListDocument(json: JSONValue(parsing: Array(client.get("/lists/k", accept: "application/json").body.utf8)))
        let snapshot = ListSnapshot(id: "k", version: 1, list: IndexedList(document: document))
        try store.commit(StoredListCoding.write(from: nil, to: snapshot, patch: JSONPatch(operations: [])))
        let edit = try snapshot.list.replacingRow(Row(key: Self.nfd, cells: [Self.nfd: .text("three")]))
        let next = ListSnapshot(id: "k", version: 2, list: edit.list)
        let write = StoredListCoding.write(from: snapshot, to: next, patch: edit.patch)
        #expect(write.upsertedRows.map { Array($0.key.utf8) } == [Array(Self.nfd.utf8)])
        try store.commit(write)
        let loaded = try StoredListCoding.snapshot(from: try #require(store.loadAll().first))
        #expect(loaded.document == next.document)
        #expect(loaded.list.orderKeys == next.list.orderKeys)
        #expect(loaded.document.sections.map { $0.rows.map { Array($0.key.utf8) } } == [[Array(Self.nfc.utf8)], [Array(Self.nfd.utf8)]])
    }
}
