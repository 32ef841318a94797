// Fractional indexing for order keys.
//
// A key is an integer part followed by a fraction, all in base-62 digits
// (`0-9A-Za-z`, which sort in ASCII order). The integer part's first character is a
// head that fixes its length: `a`…`z` hold 1…26 digits, `A`…`Z` hold 26…1 digits and
// sort before them. Appending bumps the integer (keys grow by one character per 62×
// more rows), prepending lowers it, and inserting between two keys with adjacent
// integers extends the fraction. A fraction never ends in `0`, so every key has one
// spelling and byte order is numeric order.

extension OrderKey {
    /// A key strictly between `lower` and `upper`; `nil` is an open end.
    ///
    /// Appending (`upper == nil`) and prepending (`lower == nil`) repeatedly keep keys
    /// short (logarithmic growth); inserting repeatedly at one spot grows them by about
    /// one character per six inserts. `lower` must sort before `upper`.
    public static func between(_ lower: OrderKey?, _ upper: OrderKey?) -> OrderKey {
        if let lower, let upper {
            assert(lower < upper, "OrderKey.between: \(lower.rawValue) does not sort before \(upper.rawValue)")
        }
        return OrderKey(digits: betweenDigits(lower.map(Digits.init), upper.map(Digits.init)))
    }

    /// `count` short keys, evenly spaced, all of one length: the keys of a fresh list.
    ///
    /// 1,000,000 keys are 5 characters long, 50 keys 2; there is room between any two.
    public static func spaced(count: Int) -> [OrderKey] {
        guard count > 0 else { return [] }
        var width = 1
        var span: UInt64 = 62
        while span <= UInt64(count), width < 10 {
            width += 1
            span *= 62
        }
        var keys: [OrderKey] = []
        keys.reserveCapacity(count)
        var digits = [UInt8](repeating: 0, count: width + 1)
        digits[0] = positiveHead(length: width)
        for index in 0..<count {
            let product = span.multipliedFullWidth(by: UInt64(index + 1))
            var value = UInt64(count + 1).dividingFullWidth(product).quotient
            for place in stride(from: width, through: 1, by: -1) {
                digits[place] = digitCharacter(UInt8(value % 62))
                value /= 62
            }
            keys.append(OrderKey(rawValue: String(decoding: digits, as: UTF8.self)))
        }
        return keys
    }

    /// `count` keys in increasing order, all strictly between `lower` and `upper`.
    ///
    /// Open ends step the integer part; a bounded gap takes keys counted up right after
    /// `lower` at a fixed width (`counted(after:before:count:)`) when they fit below `upper`,
    /// else it is split evenly (by bisection); either way the keys grow by about
    /// log₆₂(count) characters rather than count / 6.
    public static func keys(between lower: OrderKey?, _ upper: OrderKey?, count: Int) -> [OrderKey] {
        guard count > 0 else { return [] }
        switch (lower, upper) {
        case (nil, nil):
            return spaced(count: count)
        case (let lower?, nil):
            var keys: [OrderKey] = []
            keys.reserveCapacity(count)
            var previous = lower
            for _ in 0..<count {
                previous = between(previous, nil)
                keys.append(previous)
            }
            return keys
        case (nil, let upper?):
            var keys: [OrderKey] = []
            keys.reserveCapacity(count)
            var next = upper
            for _ in 0..<count {
                next = between(nil, next)
                keys.append(next)
            }
            return keys.reversed()
        case (let lower?, let upper?):
            if let keys = counted(after: lower, before: upper, count: count) { return keys }
            var keys: [OrderKey] = []
            keys.reserveCapacity(count)
            bisect(lower, upper, count: count, into: &keys)
            return keys
        }
    }

    /// Whether `rawValue` is a well-formed key: a head, its integer digits, a fraction not
    /// ending in `0`, base-62 digits only. Cursors accept only such keys.
    public var isWellFormed: Bool {
        let bytes = Array(rawValue.utf8)
        guard let head = bytes.first, let length = integerLength(head: head), bytes.count > length else {
            return false
        }
        guard bytes.allSatisfy({ digitValue($0) != nil }) else { return false }
        if bytes.count > length + 1 && bytes.last == UInt8(ascii: "0") { return false }
        // The smallest integer alone has nothing before it.
        return !(head == UInt8(ascii: "A") && bytes.count == 27 && bytes.dropFirst().allSatisfy { $0 == 0x30 })
    }

    private static func bisect(_ lower: OrderKey, _ upper: OrderKey, count: Int, into keys: inout [OrderKey]) {
        guard count > 0 else { return }
        let middle = between(lower, upper)
        let left = (count - 1) / 2
        bisect(lower, middle, count: left, into: &keys)
        keys.append(middle)
        bisect(middle, upper, count: count - 1 - left, into: &keys)
    }

    init(digits: [UInt8]) { self.init(rawValue: String(decoding: digits, as: UTF8.self)) }
}

// MARK: - Digits

/// A key split into its integer part (head included) and fraction, as ASCII bytes.
struct Digits {
    var integer: [UInt8]
    var fraction: [UInt8]

    init(_ key: OrderKey) {
        let bytes = Array(key.rawValue.utf8)
        let length = bytes.first.flatMap(integerLength(head:)) ?? 0
        let split = min(bytes.count, length + 1)
        integer = Array(bytes[..<split])
        fraction = Array(bytes[split...])
    }
}

/// The ASCII byte of base-62 digit `value` (0…61).
@inline(__always)
func digitCharacter(_ value: UInt8) -> UInt8 {
    value < 10 ? 0x30 + value : value < 36 ? 0x41 + value - 10 : 0x61 + value - 36
}

/// The value of a base-62 digit byte, or `nil` for any other byte.
@inline(__always)
func digitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: return byte - 0x30
    case 0x41...0x5A: return byte - 0x41 + 10
    case 0x61...0x7A: return byte - 0x61 + 36
    default: return nil
    }
}

/// How many digits follow this head: `a`…`z` → 1…26, `A`…`Z` → 26…1.
func integerLength(head: UInt8) -> Int? {
    switch head {
    case 0x61...0x7A: return Int(head - 0x61) + 1
    case 0x41...0x5A: return Int(0x5A - head) + 1
    default: return nil
    }
}

func positiveHead(length: Int) -> UInt8 { 0x61 + UInt8(length - 1) }

/// Adds one to the base-62 number in `digits[lowest...]`; false when every one of those digits
/// was `z` (they are all `0` then).
func incrementBase62(_ digits: inout [UInt8], from lowest: Int) -> Bool {
    var place = digits.count - 1
    while place >= lowest {
        let value = digitValue(digits[place])!
        if value < 61 {
            digits[place] = digitCharacter(value + 1)
            return true
        }
        digits[place] = 0x30
        place -= 1
    }
    return false
}

/// The next integer part, or `nil` after the largest (`z` and 26 `z`s).
func incremented(_ integer: [UInt8]) -> [UInt8]? {
    var result = integer
    if incrementBase62(&result, from: 1) { return result }
    // Every digit overflowed: the next head, all zeros.
    let head = result[0]
    guard head != 0x7A else { return nil }
    let nextHead: UInt8 = head == 0x5A ? 0x61 : head + 1
    return [nextHead] + [UInt8](repeating: 0x30, count: integerLength(head: nextHead)!)
}

/// The previous integer part, or `nil` before the smallest (`A` and 26 `0`s).
func decremented(_ integer: [UInt8]) -> [UInt8]? {
    var result = integer
    var place = result.count - 1
    while place >= 1 {
        let value = digitValue(result[place])!
        if value > 0 {
            result[place] = digitCharacter(value - 1)
            return result
        }
        result[place] = 0x7A
        place -= 1
    }
    let head = result[0]
    guard head != 0x41 else { return nil }
    let previousHead: UInt8 = head == 0x61 ? 0x5A : head - 1
    return [previousHead] + [UInt8](repeating: 0x7A, count: integerLength(head: previousHead)!)
}

let smallestInteger: [UInt8] = [0x41] + [UInt8](repeating: 0x30, count: 26)

/// The bytes of a key strictly between two keys (as `Digits`); `nil` is an open end.
func betweenDigits(_ lower: Digits?, _ upper: Digits?) -> [UInt8] {
    switch (lower, upper) {
    case (nil, nil):
        return [0x61, 0x30]  // "a0"
    case (nil, let upper?):
        if upper.integer == smallestInteger { return upper.integer + midpointFraction([], upper.fraction) }
        if !upper.fraction.isEmpty { return upper.integer }
        let previous = decremented(upper.integer)!
        return previous == smallestInteger ? previous + midpointFraction([], nil) : previous
    case (let lower?, nil):
        if let next = incremented(lower.integer) { return next }
        return lower.integer + midpointFraction(lower.fraction, nil)
    case (let lower?, let upper?):
        if lower.integer == upper.integer {
            return lower.integer + midpointFraction(lower.fraction, upper.fraction)
        }
        if let next = incremented(lower.integer), next != upper.integer || !upper.fraction.isEmpty,
            next.lexicographicallyPrecedes(upper.integer) || next == upper.integer
        {
            return next
        }
        return lower.integer + midpointFraction(lower.fraction, nil)
    }
}

/// A fraction strictly between `lower` and `upper` (`nil`: 1), never ending in `0`.
///
/// Both are digit bytes without a trailing `0`; `lower` may be empty (0).
func midpointFraction(_ lower: [UInt8], _ upper: [UInt8]?) -> [UInt8] {
    var result: [UInt8] = []
    var low = lower[...]
    var high = upper?[...]
    while true {
        if let h = high {
            // Copy the common prefix (a missing low digit counts as 0).
            var n = 0
            while n < h.count, (n < low.count ? low[low.startIndex + n] : 0x30) == h[h.startIndex + n] { n += 1 }
            if n > 0 {
                result += h.prefix(n)
                low = low.dropFirst(min(n, low.count))
                high = h.dropFirst(n)
            }
        }
        let lowDigit = low.first.flatMap(digitValue) ?? 0
        let highDigit = high.flatMap { $0.first.flatMap(digitValue) } ?? 62
        if highDigit - lowDigit > 1 {
            result.append(digitCharacter((lowDigit + highDigit) / 2))
            return result
        }
        if let h = high, h.count > 1 {
            result.append(h[h.startIndex])
            return result
        }
        result.append(digitCharacter(lowDigit))
        low = low.dropFirst()
        high = nil
    }
}
