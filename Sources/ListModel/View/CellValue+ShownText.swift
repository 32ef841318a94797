/// The text a page shows for a cell: what search (`q`) and the `contains` and `prefix` filters
/// match, and what the HTML renderer writes for a number cell.

extension CellValue {
    /// The text the page shows: a text cell's string, a number formatted as `formattedNumber`
    /// does, a link's text, an image's `alt`.
    public var shownText: String {
        switch self {
        case .text(let text): return text
        case .number(let number): return Self.formattedNumber(number)
        case .link(let text, _): return text
        case .image(_, let alt, _, _): return alt
        }
    }

    /// Formats a number cell's value, the same in every locale.
    ///
    /// Integral values below 2^53 in magnitude print as integers with `,` between groups of three
    /// digits (`1,234,567`; `-0` prints `0`). Other finite values print Swift's shortest
    /// round-tripping form with the integer part grouped (`1,234.5`, `0.1`), or in exponent form
    /// when Swift uses one (`1e-05`, `1.5e+20`). Non-finite values print `NaN`, `Infinity`,
    /// `-Infinity` (validation keeps them out of documents).
    public static func formattedNumber(_ value: Double) -> String {
        withFormattedNumber(value) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of `formattedNumber(value)`, formatted on the stack.
    public static func withFormattedNumber<Result>(
        _ value: Double, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            var count = 0
            func byte(_ value: UInt8) {
                buffer[count] = value
                count += 1
            }
            func bytes(_ text: some Sequence<UInt8>) { for value in text { byte(value) } }
            if value.isNaN {
                bytes("NaN".utf8)
            } else if value.isInfinite {
                bytes((value < 0 ? "-Infinity" : "Infinity").utf8)
            } else if value.rounded(.towardZero) == value, value.magnitude < 9_007_199_254_740_992 {
                let integer = Int64(value)
                if integer < 0 { byte(0x2D) }
                // The digits, backwards at the end of the buffer (at most 16), then grouped in front.
                var magnitude = integer.magnitude
                var first = buffer.count
                repeat {
                    first -= 1
                    buffer[first] = 0x30 + UInt8(magnitude % 10)
                    magnitude /= 10
                } while magnitude > 0
                groupDigits(UnsafeMutableBufferPointer(rebasing: buffer[first...]), into: byte)
            } else {
                let text = Array(value.description.utf8)
                if text.contains(0x65) {  // "e": exponent form, printed as is
                    bytes(text)
                } else {
                    var start = 0
                    if text.first == 0x2D {
                        byte(0x2D)
                        start = 1
                    }
                    let dot = text[start...].firstIndex(of: 0x2E) ?? text.count
                    groupDigits(text[start..<dot], into: byte)
                    bytes(text[dot...])
                }
            }
            return try body(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// Writes ASCII digits with `,` between groups of three.
    private static func groupDigits(_ digits: some Collection<UInt8>, into byte: (UInt8) -> Void) {
        let count = digits.count
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (count - offset) % 3 == 0 { byte(0x2C) }
            byte(digit)
        }
    }
}
