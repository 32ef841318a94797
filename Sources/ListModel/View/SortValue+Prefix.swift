// A sort value's prefix: 8 bytes that order as the values do, what a live view's entries keep
// (`ViewSectionIndex`) in place of the value.

extension SortValue {
    /// The value's prefix with texts read after `head` (`prefix(of:head:)`).
    func prefix(head: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer { bytes in head.withUnsafeBufferPointer { Self.prefix(of: bytes, head: $0) } }
    }

    /// An integer that orders as the sort values `bytes` do (equal prefixes may hide different
    /// values), given `head`: the bytes every text of a view's section began with when it was
    /// built (empty: none known), which need not be kept again per row.
    ///
    /// 0 for no value; a finite number's 8 ordered bytes as they are (exact: equal prefixes,
    /// equal numbers); texts above every number: one prefix below texts that begin with `head`,
    /// one for `head` itself (exact), then the first 52 bits of what follows `head`, then one
    /// above. Without a head, a text's first 52 bits after its tag.
    static func prefix(of bytes: UnsafeBufferPointer<UInt8>, head: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let tag = bytes.first else { return 0 }
        if tag == 0x01 {
            // Non-finite numbers (never parsed from JSON) clamp to the range's inexact ends.
            let bits = bigEndianBits(bytes, from: 1)
            return min(max(bits, finiteNumbers.lowerBound - 1), finiteNumbers.upperBound + 1)
        }
        // Every text begins with its tag: the head when none is known.
        let headCount = max(1, head.count)
        for index in 1..<headCount {
            guard index < bytes.count else { return textBelowHead }
            if bytes[index] != head[index] { return bytes[index] < head[index] ? textBelowHead : textAboveHead }
        }
        if bytes.count == headCount { return textHead }
        return textHead + 1 + min(bigEndianBits(bytes, from: headCount) >> 12, textAboveHead - textHead - 2)
    }

    /// The 8 bytes of `bytes` from `start` (zero-padded) as a big-endian integer.
    @inline(__always)
    private static func bigEndianBits(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt64 {
        var bits: UInt64 = 0
        for index in start..<(start + 8) { bits = bits << 8 | UInt64(index < bytes.count ? bytes[index] : 0) }
        return bits
    }

    /// The ordered bits of finite numbers: the prefixes that are exact.
    static let finiteNumbers: ClosedRange<UInt64> = 0x0010_0000_0000_0000...0xFFEF_FFFF_FFFF_FFFF
    /// Texts that sort before the head, the head itself, and after every text that begins with it.
    private static let textBelowHead = finiteNumbers.upperBound + 2
    private static let textHead = textBelowHead + 1
    private static let textAboveHead = UInt64.max

    /// Whether two values with this prefix are equal (no value, the same finite number, the head).
    static func prefixIsExact(_ prefix: UInt64) -> Bool {
        prefix == 0 || finiteNumbers.contains(prefix) || prefix == textHead
    }

    /// The longest beginning that the texts among `values` share (empty when there are none).
    static func commonTextHead(_ values: some Sequence<UnsafeBufferPointer<UInt8>>) -> [UInt8] {
        var head: [UInt8]?
        for value in values where value.first == 0x02 {
            guard var common = head else {
                head = Array(value.prefix(maxHeadBytes))
                continue
            }
            var count = 0
            while count < common.count && count < value.count && common[count] == value[count] { count += 1 }
            if count < common.count { common.removeSubrange(count...) }
            head = common
            if count <= 1 { break }
        }
        return head ?? []
    }

    /// The longest head kept (what a section's texts share beyond it is not used).
    static let maxHeadBytes = 64
}
