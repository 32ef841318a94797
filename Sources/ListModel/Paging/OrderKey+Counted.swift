// Keys for a run of rows put right after a key: counted up in the fraction, at a fixed width.

extension OrderKey {
    /// `count` keys in increasing order right after `lower`, all of one length: `lower`'s
    /// fraction padded with zeros until it has room for them, then counted up in base 62
    /// (skipping values that end in `0`). Nil when the last would not sort before `upper`.
    ///
    /// Bisecting the gap before `upper` spreads the keys over all of it, so the next run put
    /// after them (a section that grows by appends while another section follows it) bisects
    /// what is left, and each run adds log₆₂(count) characters: 1,000 runs of 1,000 rows made
    /// keys of 78 bytes on average, heap strings. Counted keys leave the gap's upper part
    /// free, and the next run goes on counting at the same width until the width runs out.
    static func counted(after lower: OrderKey, before upper: OrderKey, count: Int) -> [OrderKey]? {
        let digits = Digits(lower)
        var fraction = digits.fraction
        // Room above the fraction at its width, from its last digits (a lower bound); each
        // value skipped for ending in `0` is one in 62, so twice `count` is plenty.
        var room = roomAbove(fraction)
        while room < UInt64(2 * count) {
            fraction.append(0x30)
            room = room > UInt64.max / 64 ? UInt64.max : room * 62 + 61
        }
        var keys: [OrderKey] = []
        keys.reserveCapacity(count)
        for _ in 0..<count {
            repeat {
                guard incrementBase62(&fraction, from: 0) else { return nil }
            } while fraction.last == 0x30
            keys.append(OrderKey(digits: digits.integer + fraction))
        }
        guard let last = keys.last, last < upper else { return nil }
        return keys
    }

    /// How many values sort above `fraction` at its width, counted from its last 8 digits
    /// (62^8 fits in 64 bits; more digits only add room).
    private static func roomAbove(_ fraction: [UInt8]) -> UInt64 {
        var value: UInt64 = 0
        var span: UInt64 = 1
        for byte in fraction.suffix(8) {
            value = value * 62 + UInt64(digitValue(byte) ?? 0)
            span *= 62
        }
        return span - 1 - value
    }
}
