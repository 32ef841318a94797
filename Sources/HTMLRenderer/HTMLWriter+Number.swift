extension HTMLWriter {
    /// Formats a number cell's value, the same in every locale.
    ///
    /// Integral values below 2^53 in magnitude print as integers with `,` between groups of three
    /// digits (`1,234,567`; `-0` prints `0`). Other finite values print Swift's shortest
    /// round-tripping form with the integer part grouped (`1,234.5`, `0.1`), or in exponent form
    /// when Swift uses one (`1e-05`, `1.5e+20`). Non-finite values print `NaN`, `Infinity`, `-Infinity`
    /// (validation keeps them out of documents).
    public static func formatNumber(_ value: Double) -> String {
        var writer = HTMLWriter(capacity: 32)
        writer.appendNumber(value)
        return String(decoding: writer.finish(), as: UTF8.self)
    }

    mutating func appendNumber(_ value: Double) {
        if value.isNaN { raw("NaN"); return }
        if value.isInfinite { value < 0 ? raw("-Infinity") : raw("Infinity"); return }
        if value.rounded(.towardZero) == value, value.magnitude < 9_007_199_254_740_992 {
            let integer = Int64(value)
            if integer < 0 { byte(0x2D) }
            appendGrouped(integer.magnitude)
            return
        }
        var text = value.description
        text.withUTF8 { utf8 in
            if utf8.contains(0x65) {  // "e": exponent form, printed as is
                append(utf8)
                return
            }
            var start = 0
            if utf8.first == 0x2D { byte(0x2D); start = 1 }
            let dot = utf8[start...].firstIndex(of: 0x2E) ?? utf8.count
            appendGroupedDigits(UnsafeBufferPointer(rebasing: utf8[start..<dot]))
            append(UnsafeBufferPointer(rebasing: utf8[dot...]))
        }
    }

    /// Appends an unsigned integer with `,` between groups of three digits.
    mutating func appendGrouped(_ value: UInt64) {
        if value < 1000 {
            appendDigits(value, minimumWidth: 1)
            return
        }
        appendGrouped(value / 1000)
        byte(0x2C)
        appendDigits(value % 1000, minimumWidth: 3)
    }

    /// Appends `value` (< 1000) in decimal, zero-padded to `minimumWidth`.
    @inline(__always)
    private mutating func appendDigits(_ value: UInt64, minimumWidth: Int) {
        let hundreds = UInt8(value / 100), tens = UInt8(value / 10 % 10), ones = UInt8(value % 10)
        if minimumWidth == 3 || hundreds > 0 { byte(0x30 + hundreds) }
        if minimumWidth == 3 || hundreds > 0 || tens > 0 { byte(0x30 + tens) }
        byte(0x30 + ones)
    }

    /// Appends ASCII digits with `,` between groups of three.
    private mutating func appendGroupedDigits(_ digits: UnsafeBufferPointer<UInt8>) {
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { byte(0x2C) }
            byte(digit)
        }
    }
}
