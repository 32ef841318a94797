import Testing

@testable import ListModel

/// `ViewOrder` (the fast sort of one section's rows) against the definition it must keep:
/// `ViewKey.precedes`, on texts that share long prefixes, equal texts, NULs and empty values.
@Suite struct ViewOrderSortTests {
    /// Keys in list order (ascending order keys) with sort values from `texts` (nil: empty).
    func keys(_ texts: [String?]) -> [ViewKey] {
        texts.enumerated().map { index, text in
            let orderKey = OrderKey(rawValue: String(format: "k%06d", index))
            return ViewKey(sortValue: text.map { SortValue(text: $0.utf8) } ?? .empty, orderKey: orderKey)
        }
    }

    func expectSameOrder(_ texts: [String?]) {
        let keys = keys(texts)
        for descending in [false, true] {
            let fast = ViewOrder.positions(of: keys, descending: descending)
            let reference = keys.indices.sorted { keys[$0].precedes(keys[$1], descending: descending) }
            #expect(fast == reference, "descending: \(descending)")
        }
    }

    @Test func longSharedPrefixesEqualTextsAndEmptyValues() {
        let prefix = "a very long shared prefix, longer than sixteen bytes "
        expectSameOrder([prefix + "b", prefix + "a", nil, prefix + "a", "", "\u{0}x", "x\u{0}", prefix, nil, "A", "a"])
    }

    @Test func randomTextsFromASmallAlphabet() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = ["a", "B", "é", "e\u{301}", "1", "2", "0", " ", "\u{0}", "ß", "ss"]
        for _ in 0..<50 {
            let texts: [String?] = (0..<200).map { _ in
                if Int.random(in: 0..<10, using: &generator) == 0 { return nil }
                let length = Int.random(in: 0..<24, using: &generator)
                return (0..<length).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            }
            expectSameOrder(texts)
        }
    }

    /// Sections long enough for the radix sort: numbers (negative, zero, equal, huge) and texts
    /// (equal, sharing more than 16 bytes, short, empty) mixed, both directions.
    @Test func longSectionsOfNumbersAndTexts() {
        var generator = SystemRandomNumberGenerator()
        let shared = "a shared beginning longer than sixteen bytes "
        for round in 0..<12 {
            let count = [257, 300, 3_000][round % 3]
            let values: [SortValue] = (0..<count).map { _ in
                switch Int.random(in: 0..<6, using: &generator) {
                case 0: return .empty
                case 1: return SortValue(number: Double(Int.random(in: -5...5, using: &generator)))
                case 2: return SortValue(number: Double.random(in: -1e300...1e300, using: &generator))
                case 3: return SortValue(text: (shared + String(Int.random(in: 0..<40, using: &generator))).utf8)
                case 4: return SortValue(text: ["", "a", "B", "b", "ß", "0", "00"].randomElement(using: &generator)!.utf8)
                default: return SortValue(text: String(UInt64.random(in: 0..<UInt64.max, using: &generator), radix: 36).utf8)
                }
            }
            let keys = values.enumerated().map { index, value in
                ViewKey(sortValue: value, orderKey: OrderKey(rawValue: String(format: "k%06d", index)))
            }
            for descending in [false, true] {
                let fast = ViewOrder.positions(of: keys, descending: descending)
                let reference = keys.indices.sorted { keys[$0].precedes(keys[$1], descending: descending) }
                #expect(fast == reference, "round \(round), descending: \(descending)")
            }
        }
    }

    @Test func permutedKeysMoveEveryKeyToItsPlace() {
        for count in [0, 1, 2, 7, 100] {
            let order = Array(0..<count).shuffled()
            let texts: [String?] = (0..<count).map { $0 % 5 == 0 ? nil : "v\($0)" }
            let original = keys(texts)
            let permuted = ViewKeys(original).permuted(by: order)
            #expect((0..<count).map { permuted[$0] } == order.map { original[$0] })
        }
    }
}
