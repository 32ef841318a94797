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
}
