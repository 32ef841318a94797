import ListModel

extension HTMLWriter {
    /// Formats a number cell's value, the same in every locale: `CellValue.formattedNumber`
    /// (`1,234,567`, `1,234.5`, `1e-05`), which search matches against.
    public static func formatNumber(_ value: Double) -> String {
        CellValue.formattedNumber(value)
    }

    /// Appends `CellValue.formattedNumber(value)`'s bytes.
    mutating func appendNumber(_ value: Double) {
        CellValue.withFormattedNumber(value) { append($0) }
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
}
