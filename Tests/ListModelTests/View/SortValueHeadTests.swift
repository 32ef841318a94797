import ListModelTesting
import Testing

@testable import ListModel

/// A text's sort value read only as far as its head (`SortValue.appendHead`) begins with the same
/// bytes as the whole value, as far as a prefix reads them.
@Suite struct SortValueHeadTests {
    /// Pieces that make texts hard to cut: digit runs (leading zeros, long), scalars of 2-4 bytes
    /// (one folding to two: ß), the bytes 0x00 and 0x01, cases.
    static let pieces = [
        "Item ", "item", "0", "007", "12345678901234567890", "9", " ", "ß", "ẞ", "é", "É", "日本", "🙂", "\u{0}",
        "\u{1}", "Straße", "K", "\u{212A}", "a", "Z", "-", "x1y2z3",
    ]

    func check(_ text: String) {
        let whole = SortValue(text: text.utf8).bytes
        var head: [UInt8] = [0xAA]  // something before, as in a reused buffer: left alone
        let isHead = Array(text.utf8).withUnsafeBufferPointer { SortValue.appendHead(text: $0, to: &head) }
        #expect(head.first == 0xAA)
        head.removeFirst()
        if isHead {
            #expect(head.count >= SortValue.headBytes && head.count < whole.count, "\(text.debugDescription)")
            #expect(Array(head.prefix(SortValue.headBytes)) == Array(whole.prefix(SortValue.headBytes)), "\(text.debugDescription)")
        } else {
            #expect(head == whole, "\(text.debugDescription)")
        }
    }

    @Test func theHeadBeginsAsTheWholeValue() {
        var rng = SplitMix64(seed: 16)
        var heads = 0
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...12, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng)! }.joined()
            check(text)
            let isHead = Array(text.utf8).withUnsafeBufferPointer { bytes -> Bool in
                var out: [UInt8] = []
                return SortValue.appendHead(text: bytes, to: &out)
            }
            heads += isHead ? 1 : 0
        }
        #expect(heads > 1_000)  // most of these texts are long enough to be cut
        for text in ["", "short", "0000000000000000000000001", "Item 123456 <r123456> & co", String(repeating: "ß", count: 40)] {
            check(text)
        }
    }

    /// The primary form of an ASCII text written in place (`appendPrimary(ascii:to:)`) is the
    /// form read scalar by scalar: cases, digit runs with and without leading zeros, 0x00 and
    /// 0x01; and a text with any other scalar is left to the scalar path.
    @Test func theASCIIFormIsTheFormReadScalarByScalar() {
        var rng = SplitMix64(seed: 41)
        let pieces = ["Item ", "iTEM", "0", "00", "007", "1234567890123", "9", " ", "\u{0}", "\u{1}", "\u{7F}", "AZaz@[`{", "-", "é"]
        var ascii = 0
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...10, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            var scalars: [UInt8] = [0xAA]
            SortValue.appendPrimaryByScalars(of: Array(text.utf8), to: &scalars)
            var fast: [UInt8] = [0xAA]
            let written = Array(text.utf8).withUnsafeBufferPointer { SortValue.appendPrimary(ascii: $0, to: &fast) }
            if written {
                ascii += 1
                #expect(fast == scalars, "\(text.debugDescription)")
            } else {
                #expect(fast == [0xAA] && text.utf8.contains { $0 >= 0x80 }, "\(text.debugDescription)")
            }
            #expect(SortValue.primary(of: text.utf8) == Array(scalars.dropFirst()), "\(text.debugDescription)")
        }
        #expect(ascii > 2_000)
    }
}
