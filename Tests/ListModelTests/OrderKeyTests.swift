import ListModelTesting
import Testing

@testable import ListModel

@Suite struct OrderKeyTests {
    func key(_ text: String) -> OrderKey { OrderKey(rawValue: text) }

    @Test func firstKeyAndOpenEnds() {
        let first = OrderKey.between(nil, nil)
        #expect(first.rawValue == "a0")
        #expect(OrderKey.between(first, nil).rawValue == "a1")
        #expect(OrderKey.between(nil, first).rawValue == "Zz")
        #expect(OrderKey.between(key("az"), nil).rawValue == "b00")
        #expect(OrderKey.between(nil, key("b00")).rawValue == "az")
    }

    @Test func betweenIsStrictlyBetweenAndShort() {
        #expect(OrderKey.between(key("a0"), key("a1")).rawValue == "a0V")
        #expect(OrderKey.between(key("a0"), key("a5")).rawValue == "a1")
        #expect(OrderKey.between(key("a0V"), key("a1")).rawValue == "a0k")
        #expect(OrderKey.between(key("a0"), key("a0V")).rawValue == "a0F")
        #expect(OrderKey.between(key("a0z"), key("a1")).rawValue == "a0zV")
        #expect(OrderKey.between(key("a01"), key("a02")).rawValue == "a01V")
        #expect(OrderKey.between(key("a0"), key("a01")).rawValue == "a00V")
    }

    @Test func appendingAndPrependingKeepKeysShort() {
        var last = OrderKey.between(nil, nil)
        var first = last
        for _ in 0..<100_000 {
            let next = OrderKey.between(last, nil)
            #expect(last < next)
            last = next
            let previous = OrderKey.between(nil, first)
            #expect(previous < first)
            first = previous
        }
        // 62 + 62² + … : 100,000 appends fit in a head and three digits.
        #expect(last.rawValue.utf8.count == 4)
        #expect(first.rawValue.utf8.count == 4)
        #expect(last.isWellFormed && first.isWellFormed)
    }

    @Test func spacedKeysAreSortedShortAndLeaveRoom() {
        for count in [1, 2, 50, 61, 62, 3_844, 10_000] {
            let keys = OrderKey.spaced(count: count)
            #expect(keys.count == count)
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
            let width = Set(keys.map { $0.rawValue.utf8.count })
            #expect(width.count == 1)
            #expect(keys.allSatisfy { $0.isWellFormed })
            // Room before, between and after.
            #expect(OrderKey.between(nil, keys[0]) < keys[0])
            #expect(OrderKey.between(keys[count - 1], nil) > keys[count - 1])
        }
        #expect(OrderKey.spaced(count: 50)[0].rawValue.utf8.count == 2)
        #expect(OrderKey.spaced(count: 10_000)[0].rawValue.utf8.count == 4)
        #expect(OrderKey.spaced(count: 0).isEmpty)
    }

    @Test func keysBetweenFillAGapEvenly() {
        let lower = key("a0"), upper = key("a1")
        let keys = OrderKey.keys(between: lower, upper, count: 1_000)
        #expect(keys.count == 1_000)
        #expect(lower < keys[0] && keys[999] < upper)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
        #expect(keys.map { $0.rawValue.utf8.count }.max()! <= 5)
        let after = OrderKey.keys(between: upper, nil, count: 100)
        #expect(after.first! > upper && zip(after, after.dropFirst()).allSatisfy { $0 < $1 })
        let before = OrderKey.keys(between: nil, lower, count: 100)
        #expect(before.last! < lower && zip(before, before.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// A section that grows by runs of appends while another section follows it: each run goes
    /// between the last key and the next section's first. 200 runs of 1,000 keys stay short
    /// (bisecting each gap added about two characters a run: 78-byte keys after 1,000 runs).
    @Test func runsAppendedBeforeAFollowingKeyStayShort() {
        let upper = key("b10")
        var last = key("b0z")
        for _ in 0..<200 {
            let keys = OrderKey.keys(between: last, upper, count: 1_000)
            #expect(keys.count == 1_000 && last < keys[0] && keys[999] < upper)
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 } && keys.allSatisfy(\.isWellFormed))
            last = keys[999]
        }
        #expect(last.rawValue.utf8.count <= 8)
    }

    @Test func randomInsertionsStaySortedWellFormedAndShort() {
        var rng = SplitMix64(seed: 42)
        var keys: [OrderKey] = []
        for _ in 0..<5_000 {
            let index = Int.random(in: 0...keys.count, using: &rng)
            let lower = index > 0 ? keys[index - 1] : nil
            let upper = index < keys.count ? keys[index] : nil
            let key = OrderKey.between(lower, upper)
            if let lower { #expect(lower < key) }
            if let upper { #expect(key < upper) }
            #expect(key.isWellFormed)
            keys.insert(key, at: index)
        }
        // Random positions: the length grows with log(n), not n.
        #expect(keys.map { $0.rawValue.utf8.count }.max()! <= 12)
    }

    @Test func repeatedInsertsAtOneSpotGrowSlowly() {
        var lower = key("a0")
        let upper = key("a1")
        for _ in 0..<600 {
            let key = OrderKey.between(lower, upper)
            #expect(lower < key && key < upper && key.isWellFormed)
            lower = key
        }
        // About one character per six inserts at the same place.
        #expect(lower.rawValue.utf8.count <= 2 + 600 / 5)
    }

    @Test func theExtremesOfTheIntegerRangeFallBackToFractions() {
        let largest = key("z" + String(repeating: "z", count: 26))
        let after = OrderKey.between(largest, nil)
        #expect(after.rawValue == largest.rawValue + "V" && after > largest && after.isWellFormed)
        let smallest = "A" + String(repeating: "0", count: 26)
        let low = key(smallest + "1")
        let before = OrderKey.between(nil, low)
        #expect(before < low && before.isWellFormed && before.rawValue == smallest + "0V")
        let next = key("A" + String(repeating: "0", count: 25) + "1")
        let justBefore = OrderKey.between(nil, next)
        #expect(justBefore < next && justBefore.isWellFormed && justBefore.rawValue == smallest + "V")
        // Crossing from negative to positive heads.
        #expect(OrderKey.between(key("Zz"), nil).rawValue == "a0")
        #expect(OrderKey.between(key("Zz"), key("a0")).rawValue == "ZzV")
    }

    @Test func betweenAnyTwoWellFormedKeys() {
        var rng = SplitMix64(seed: 1234)
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        func randomKey() -> OrderKey {
            let heads = Array("XYZabc")
            let head = heads.randomElement(using: &rng)!
            let length =
                head.isUppercase
                ? Int(Character("Z").asciiValue! - head.asciiValue!) + 1
                : Int(head.asciiValue! - Character("a").asciiValue!) + 1
            var text = String(head) + String((0..<length).map { _ in digits.randomElement(using: &rng)! })
            for _ in 0..<Int.random(in: 0...3, using: &rng) { text.append(digits.randomElement(using: &rng)!) }
            while text.count > length + 1 && text.last == "0" { text.removeLast() }
            return key(text)
        }
        for _ in 0..<20_000 {
            let a = randomKey(), b = randomKey()
            guard a != b else { continue }
            let (lower, upper) = a < b ? (a, b) : (b, a)
            let middle = OrderKey.between(lower, upper)
            #expect(lower < middle && middle < upper && middle.isWellFormed, "\(lower.rawValue) \(upper.rawValue)")
            #expect(OrderKey.between(nil, lower) < lower && OrderKey.between(upper, nil) > upper)
        }
    }

    @Test func wellFormedness() {
        for good in ["a0", "a0V", "b00", "Zz", "zzzzzzzzzzzzzzzzzzzzzzzzzzz", "A00000000000000000000000001"] {
            #expect(key(good).isWellFormed, "\(good)")
        }
        for bad in ["", "a", "a0V0", "b0", "a-", "0a", "a0 ", "é0", "A00000000000000000000000000"] {
            #expect(!key(bad).isWellFormed, "\(bad)")
        }
    }
}
