import Foundation
import ListModel
import ListServerTesting
import ListStore
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// Row versions (API.md "Row versions"): the list version of the last write that changed a row,
/// checked against a reference through random writes of every kind on two instances sharing a
/// store, each catching up with the other's writes from the change log.
@Suite("Row versions")
struct RowVersionTests {
    /// The test's model of the list: sections of rows, each row's cells.
    struct Model {
        var sections: [(key: String, rows: [(key: String, name: String, note: String?)])]

        init(json: JSONValue) {
            sections = (json["/sections"]?.arrayValue ?? []).map { section in
                (
                    section["/key"]!.stringValue!,
                    (section["/rows"]?.arrayValue ?? []).map { row in
                        (row["/key"]!.stringValue!, row["/cells/name"]?.stringValue ?? "", row["/cells/note"]?.stringValue)
                    }
                )
            }
        }

        var json: String {
            let sectionsJSON = sections.map { section in
                let rows = section.rows.map { row in
                    var cells = #""name": \#(JSONValue.string(row.name).serializedText)"#
                    if let note = row.note { cells += #", "note": \#(JSONValue.string(note).serializedText)"# }
                    return #"{"key": \#(JSONValue.string(row.key).serializedText), "cells": {\#(cells)}}"#
                }
                return #"{"key": "\#(section.key)", "rows": [\#(rows.joined(separator: ","))]}"#
            }
            return #"{"title": "T", "columns": [{"key": "name"}, {"key": "note"}], "sections": [\#(sectionsJSON.joined(separator: ","))]}"#
        }

        var rowKeys: [String] { sections.flatMap { $0.rows.map(\.key) } }
    }

    static func version(_ answer: RouterClient.Answer) -> Int? {
        answer.header("ETag").flatMap { Int($0.dropFirst().dropLast()) }
    }

    /// Every row's version on `instance` equals the reference's.
    static func expectVersions(_ instance: SharedStoreInstance, _ reference: [String: Int], _ note: String) throws {
        let list = try #require(instance.registry.snapshot(id: "l")).list
        var held: [String: Int] = [:]
        for position in 0..<list.rowCount {
            let key = list.row(atPosition: position).key
            held[key] = list.version(ofRow: key)
        }
        #expect(held == reference, "\(note)")
    }

    @Test func versionsFollowTheRulesThroughRandomWritesOnTwoInstances() throws {
        try withSharedStore(instances: 2) { instances in
            var random = SystemRandomNumberGenerator()
            var seed = UInt64.random(in: 0..<1_000_000, using: &random)
            let initialSeed = seed
            func next(_ bound: Int) -> Int {
                // A small LCG, so a failure names its seed.
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return Int((seed >> 33) % UInt64(bound))
            }
            var model = Model(json: .object(JSONObject()))
            model.sections = (0..<3).map { s in ("s\(s)", (0..<4).map { r in ("r\(s)-\(r)", "n\(s)-\(r)", r % 2 == 0 ? "x" : nil) }) }
            let created = try instances[0].client.put("/lists/l", json: model.json)
            #expect(created.status == 201)
            var reference: [String: Int] = [:]
            for key in model.rowKeys { reference[key] = 1 }
            var fresh = 0
            var kinds: [Int: Int] = [:]
            for step in 0..<400 {
                let instance = instances[next(2)]
                let note = "seed \(initialSeed) step \(step)"
                let keys = model.rowKeys
                let key = keys.isEmpty ? "none" : keys[next(keys.count)]
                let other = keys.isEmpty ? "none" : keys[next(keys.count)]
                let section = model.sections[next(model.sections.count)].key
                fresh += 1
                let newKey = "new\(fresh)"
                let kind = keys.count < 4 ? 3 : next(10)
                kinds[kind, default: 0] += 1
                let ifMatch: HTTPHeaders = ["If-Match": "\"\(reference[key] ?? 0)\""]
                var changed: [String] = []
                var removed: [String] = []
                let answer: RouterClient.Answer
                switch kind {
                case 0:  // PUT a row with new cells
                    answer = try instance.client.put("/lists/l/rows/\(key)", json: #"{"cells": {"name": "put\#(step)"}}"#, headers: ifMatch)
                    changed = [key]
                case 1:  // PUT a row byte-equal: it keeps its version
                    let row = model.sections.flatMap(\.rows).first { $0.key == key }!
                    var cells = #""name": \#(JSONValue.string(row.name).serializedText)"#
                    if let rowNote = row.note { cells += #", "note": \#(JSONValue.string(rowNote).serializedText)"# }
                    answer = try instance.client.put("/lists/l/rows/\(key)", json: "{\"cells\": {\(cells)}}", headers: ifMatch)
                case 2:  // merge
                    var headers = ifMatch
                    headers["Content-Type"] = "application/merge-patch+json"
                    let body = next(2) == 0 ? #"{"cells": {"name": "m\#(step)", "note": null}}"# : #"{"cells": {"note": "m\#(step)"}}"#
                    answer = try instance.client.send(.patch, "/lists/l/rows/\(key)", body, headers: headers)
                    changed = [key]
                case 3:  // insert
                    let position =
                        keys.isEmpty || next(2) == 0 ? "" : "?after=\(model.sections.first { $0.key == section }?.rows.first?.key ?? "")"
                    let target = position == "?after=" ? "" : position
                    answer = try instance.client.post(
                        "/lists/l/sections/\(section)/rows\(target)",
                        json: #"[{"key": "\#(newKey)", "cells": {"name": "i\#(step)"}}]"#)
                    changed = [newKey]
                case 4:  // delete
                    answer = try instance.client.send(.delete, "/lists/l/rows/\(key)", headers: ifMatch)
                    removed = [key]
                case 5:  // move
                    let query: String
                    if key == other || next(3) == 0 {
                        query = "section=\(section)"
                    } else {
                        query = next(2) == 0 ? "before=\(other)" : "after=\(other)"
                    }
                    answer = try instance.client.send(.post, "/lists/l/rows/\(key)/move?\(query)", headers: ifMatch)
                    changed = [key]
                case 6:  // JSON Patch of one cell
                    let (s, r) = model.sections.enumerated().lazy.compactMap { index, section in
                        section.rows.firstIndex { $0.key == key }.map { (index, $0) }
                    }.first!
                    answer = try instance.client.patch(
                        "/lists/l", #"[{"op": "replace", "path": "/sections/\#(s)/rows/\#(r)/cells/name", "value": "p\#(step)"}]"#)
                    changed = [key]
                case 7:  // a whole-document PUT: two rows changed, one removed, one added; no row moved
                    var edited = model
                    for target in [key, other] where target != removed.first {
                        for s in edited.sections.indices {
                            for r in edited.sections[s].rows.indices where edited.sections[s].rows[r].key == target {
                                edited.sections[s].rows[r].name = "w\(step)-\(target)"
                            }
                        }
                    }
                    changed = Array(Set([key, other]))
                    let gone = keys[next(keys.count)]
                    if !changed.contains(gone) {
                        for s in edited.sections.indices { edited.sections[s].rows.removeAll { $0.key == gone } }
                        removed = [gone]
                    }
                    let s = next(edited.sections.count)
                    edited.sections[s].rows.insert((newKey, "w\(step)", nil), at: next(edited.sections[s].rows.count + 1))
                    changed.append(newKey)
                    answer = try instance.client.put("/lists/l", json: edited.json)
                case 8:  // a stale row precondition: 412 with the row as it is, nothing changes
                    let stale = try instance.client.put(
                        "/lists/l/rows/\(key)", json: #"{"cells": {"name": "stale"}}"#,
                        headers: ["If-Match": "\"\(reference[key]! + 1000)\""])
                    #expect(stale.status == 412, "\(note)")
                    let problem = try JSONValue(parsing: Array(stale.body.utf8))
                    let current = try instance.client.get("/lists/l/rows/\(key)")
                    #expect(problem["/current"] == (try JSONValue(parsing: Array(current.body.utf8))), "\(note)")
                    #expect(Self.version(current) == reference[key], "\(note): GET's ETag is the row's version")
                    continue
                default:  // a write to another row leaves this one alone, and its If-Match still holds
                    guard key != other else { continue }
                    answer = try instance.client.put("/lists/l/rows/\(other)", json: #"{"cells": {"name": "o\#(step)"}}"#)
                    changed = [other]
                }
                #expect(answer.status == 200 || answer.status == 204, "\(note) kind \(kind): \(answer.status) \(answer.body)")
                guard let version = Self.version(answer) else { continue }
                for row in removed { reference[row] = nil }
                for row in changed { reference[row] = version }
                model = Model(json: try #require(try instance.document("l")).json)
                #expect(Set(model.rowKeys) == Set(reference.keys), "\(note)")
                try Self.expectVersions(instance, reference, "\(note) kind \(kind) on the writer")
                if step % 15 == 14 {
                    for other in instances {
                        other.notify("l", version)
                        try Self.expectVersions(other, reference, "\(note) after catching up")
                    }
                }
            }
            #expect(kinds.count == 10, "every kind of write ran: \(kinds)")
            // A registry loaded from the store agrees.
            let reloaded = try SharedStoreInstance(path: (instances[0].store as! SQLiteStore).path)
            defer { reloaded.store.close() }
            try Self.expectVersions(reloaded, reference, "seed \(initialSeed), loaded again")
        }
    }
}
