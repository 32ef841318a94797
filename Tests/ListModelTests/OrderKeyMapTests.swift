import ListModelTesting
import Testing

@testable import ListModel

@Suite struct OrderKeyMapTests {
    /// Random inserts, sets and removals, past several folds of the overlay, agree with a
    /// plain dictionary; a copy taken midway keeps its own mappings.
    @Test func agreesWithADictionary() {
        var random = SplitMix64(seed: 3)
        var reference: [ByteKey: OrderKey] = [:]
        for index in 0..<1_000 { reference[ByteKey("k\(index)")] = OrderKey(rawValue: "a\(index)") }
        var map = OrderKeyMap(reference)
        var snapshot: (OrderKeyMap, [ByteKey: OrderKey])?
        for step in 0..<5_000 {
            let key = "k\(Int.random(in: 0..<1_600, using: &random))"
            let orderKey = OrderKey(rawValue: "b\(step)")
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                #expect(map.insert(key, orderKey) == (reference[ByteKey(key)] == nil))
                if reference[ByteKey(key)] == nil { reference[ByteKey(key)] = orderKey }
            case 1:
                map.set(key, orderKey)
                reference[ByteKey(key)] = orderKey
            default:
                map.remove(key)
                reference[ByteKey(key)] = nil
            }
            #expect(map[key] == reference[ByteKey(key)])
            #expect(map.count == reference.count)
            if step == 2_500 { snapshot = (map, reference) }
        }
        #expect(map.dictionary == reference)
        #expect(snapshot?.0.dictionary == snapshot?.1)
    }

    /// A map grown as a feed grows (batches of new rows, each past a fold), then mostly emptied
    /// and partly refilled with keys it held before, agrees with a dictionary at every step;
    /// a copy taken before the removals keeps its own mappings and versions.
    @Test func growsShrinksAndRefillsLikeADictionary() {
        var map = OrderKeyMap([:])
        var reference: [ByteKey: OrderKey] = [:]
        for batch in 0..<40 {
            for row in 0..<500 {
                let key = "f\(batch * 500 + row)"
                let inserted = map.insert(key, OrderKey(rawValue: "a\(batch)-\(row)"))
                #expect(inserted)
                reference[ByteKey(key)] = OrderKey(rawValue: "a\(batch)-\(row)")
            }
            map.setVersion("f\(batch * 500)", batch + 1)
            #expect(map.count == reference.count)
        }
        let grown = (map, reference)
        for index in stride(from: 0, to: 20_000, by: 5) where index % 3 != 0 {
            map.remove("f\(index)")
            map.remove("f\(index + 1)")
            reference[ByteKey("f\(index)")] = nil
            reference[ByteKey("f\(index + 1)")] = nil
        }
        #expect(map.count == reference.count)
        for index in stride(from: 0, to: 20_000, by: 10) {
            map.set("f\(index)", OrderKey(rawValue: "b\(index)"))
            reference[ByteKey("f\(index)")] = OrderKey(rawValue: "b\(index)")
        }
        #expect(map.count == reference.count)
        #expect(map.dictionary == reference)
        #expect(map["f5"] == nil && map["f10"] == OrderKey(rawValue: "b10") && map["f19999"] == reference[ByteKey("f19999")])
        #expect(grown.0.dictionary == grown.1)
        #expect(grown.0.version(of: "f19500") == 40 && grown.0.version(of: "f19501") == 0)
        #expect(map.version(of: "f6") == nil)
    }
}
