import ListModelTesting
import Testing

@testable import ListModel

/// `IndexedList.replaying`: another instance's committed change gives the same list, order keys
/// included, as on the instance that made it.
@Suite struct IndexedListReplayTests {
    static func list(_ rows: [String]) throws -> IndexedList {
        let doc = try ListDocument(
            json: JSONValue(
                parsing: Array(
                    """
                    {"title": "t", "sections": [{"key": "s", "rows": [\(rows.map { "{\"key\": \"\($0)\"}" }.joined(separator: ","))]},
                                                {"key": "u", "rows": []}]}
                    """.utf8)))
        return IndexedList(document: doc)
    }

    @Test func randomEditsReplayToTheWritersList() throws {
        var generator = SplitMix64(seed: 7)
        var writer = try Self.list((0..<40).map { "r\($0)" })
        var reader = writer
        for step in 0..<200 {
            var document = writer.document
            let section = Int(generator.next() % 2)
            let target = document.sections[section].rows.count
            switch generator.next() % 3 {
            case 0 where target > 0:
                let moved = document.sections[section].rows.remove(at: Int(generator.next() % UInt64(target)))
                let other = 1 - section
                document.sections[other].rows.insert(moved, at: Int(generator.next() % UInt64(document.sections[other].rows.count + 1)))
            case 1 where target > 0:
                document.sections[section].rows.remove(at: Int(generator.next() % UInt64(target)))
            default:
                let row = try ListDocument(
                    json: JSONValue(
                        parsing: Array(
                            """
                            {"title": "t", "sections": [{"key": "x", "rows": [{"key": "n\(step)"}]}]}
                            """.utf8))
                ).sections[0].rows[0]
                document.sections[section].rows.insert(row, at: Int(generator.next() % UInt64(target + 1)))
            }
            let next = writer.updated(to: document)
            let patch = JSONPatch(from: writer.document, to: document)
            var logged: [ByteKey: OrderKey] = [:]
            for (key, orderKey) in next.orderKeysByRow.dictionary where writer.orderKey(ofRow: key.string) != orderKey {
                logged[key] = orderKey
            }
            reader = try reader.replaying(patch, orderKeys: logged)
            writer = next
            #expect(reader.document == writer.document)
            #expect(reader.orderKeys == writer.orderKeys)
        }
    }

    @Test func aRowWithNoOrderKeyIsRefused() throws {
        let list = try Self.list(["a"])
        let patch = try JSONPatch(parsing: Array(#"[{"op": "add", "path": "/sections/0/rows/-", "value": {"key": "b"}}]"#.utf8))
        #expect(throws: IndexedListError.self) { try list.replaying(patch, orderKeys: [:]) }
        let key = OrderKey.keys(between: list.orderKey(ofRow: "a"), nil, count: 1)[0]
        let replayed = try list.replaying(patch, orderKeys: ["b": key])
        #expect(replayed.orderKey(ofRow: "b") == key)
    }
}
