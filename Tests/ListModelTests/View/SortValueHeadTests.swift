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
}
