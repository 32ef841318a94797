extension JSONParser {
    /// Parses a number per the JSON grammar; exact fast path for short decimals, `strtod` otherwise.
    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = index
        var i = index
        let negative = base[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < end, isDigit(base[i]) else {
            throw JSONParseError(offset: i, message: "expected a digit in number")
        }
        var mantissa: UInt64 = 0
        var exact = true  // mantissa holds every significant digit
        var exponent = 0  // decimal exponent applied to mantissa
        if base[i] == UInt8(ascii: "0") {
            i += 1
            if i < end && isDigit(base[i]) { throw JSONParseError(offset: start, message: "leading zero in number") }
        } else {
            while i < end && isDigit(base[i]) {
                accumulate(base[i], into: &mantissa, exact: &exact, dropped: &exponent)
                i += 1
            }
        }
        if i < end && base[i] == UInt8(ascii: ".") {
            i += 1
            guard i < end, isDigit(base[i]) else {
                throw JSONParseError(offset: i, message: "expected a digit after '.' in number")
            }
            while i < end && isDigit(base[i]) {
                var ignored = 0
                accumulate(base[i], into: &mantissa, exact: &exact, dropped: &ignored)
                if exact { exponent -= 1 }
                i += 1
            }
        }
        if i < end && (base[i] == UInt8(ascii: "e") || base[i] == UInt8(ascii: "E")) {
            i += 1
            var negativeExponent = false
            if i < end && (base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-")) {
                negativeExponent = base[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < end, isDigit(base[i]) else {
                throw JSONParseError(offset: i, message: "expected a digit in exponent")
            }
            var value = 0
            while i < end && isDigit(base[i]) {
                if value < 1_000_000 { value = value * 10 + Int(base[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            exponent += negativeExponent ? -value : value
        }
        index = i
        if exact && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            // Both operands are exact doubles, so one correctly rounded operation gives the exact result.
            var result = Double(mantissa)
            if exponent > 0 { result *= powersOfTen[exponent] } else if exponent < 0 { result /= powersOfTen[-exponent] }
            return negative ? -result : result
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self)
        guard let result = Double(text), result.isFinite else {
            throw JSONParseError(offset: start, message: "number \(text.prefix(40)) is too large")
        }
        return result
    }

    @inline(__always)
    private func accumulate(_ digit: UInt8, into mantissa: inout UInt64, exact: inout Bool, dropped: inout Int) {
        guard exact else {
            dropped += 1
            return
        }
        let (times10, o1) = mantissa.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(UInt64(digit &- UInt8(ascii: "0")))
        if o1 || o2 {
            exact = false
            dropped += 1
        } else {
            mantissa = sum
        }
    }
}

@inline(__always)
private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

private let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]
