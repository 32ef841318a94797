import Testing

@testable import ListModel

@Suite struct CaseFoldingTests {
    /// Mappings of status C and F from CaseFolding.txt, and scalars it leaves alone.
    @Test(
        arguments: [
            ("ABC xyz", "abc xyz"),
            ("ß", "ss"), ("ẞ", "ss"), ("Straße", "strasse"),
            ("ς", "σ"), ("Σ", "σ"), ("ΣΑΣ", "σασ"),
            ("\u{212A}", "k"), ("\u{2126}", "ω"), ("\u{212B}", "å"),
            ("ﬁ", "fi"), ("ﬅ", "st"), ("ŉ", "ʼn"),
            ("İ", "i\u{307}"), ("ı", "ı"),
            ("ǰ", "j\u{30C}"), ("ΐ", "ι\u{308}\u{301}"), ("\u{1FBE}", "ι"), ("\u{345}", "ι"),
            ("ᾈ", "ἀι"), ("ǅ", "ǆ"), ("µ", "μ"), ("ſ", "s"),
            ("\u{13F8}", "\u{13F0}"), ("\u{AB70}", "\u{13A0}"), ("\u{13A0}", "\u{13A0}"),
            ("\u{1C90}", "\u{10D0}"), ("Ｚ", "ｚ"), ("123", "123"), ("🎉", "🎉"),
        ] as [(String, String)])
    func foldsAsCaseFoldingTxt(text: String, folded: String) {
        #expect(Array(CaseFolding.folded(text).unicodeScalars) == Array(folded.unicodeScalars))
    }

    /// Folding is idempotent (a Unicode stability guarantee): checked for every scalar.
    @Test func foldingTwiceIsFoldingOnce() {
        var failures: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            var once: [Unicode.Scalar] = []
            CaseFolding.fold(scalar) { once.append($0) }
            var twice: [Unicode.Scalar] = []
            for folded in once { CaseFolding.fold(folded) { twice.append($0) } }
            if once != twice { failures.append(value) }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10).map { String($0, radix: 16) })")
    }

    @Test func invalidUTF8FoldsToReplacementCharacters() {
        #expect(CaseFolding.foldedUTF8([0x41, 0xFF, 0x42]) == Array("a\u{FFFD}b".utf8))
    }

    /// An ASCII text folded at once (`fold(_:into:)`'s fast path) is the text folded scalar by
    /// scalar, into a reused buffer; any other text takes the scalar path.
    @Test func asciiTextsFoldAtOnceAsScalarByScalar() {
        var generator = SystemRandomNumberGenerator()
        var buffer: [UInt8] = Array("left over".utf8)
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...20, using: &generator)).map { _ in UInt8.random(in: 0...0x7F, using: &generator) }
            var scalars: [UInt8] = []
            CaseFolding.forEachFoldedScalar(bytes) { appendUTF8($0, to: &scalars) }
            CaseFolding.fold(bytes, into: &buffer)
            #expect(buffer == scalars)
            var untouched: [UInt8] = [1]
            #expect(!Array("Straße".utf8).withUnsafeBufferPointer { CaseFolding.foldASCII($0, into: &untouched) } && untouched == [1])
        }
        CaseFolding.fold(Array("STRASSE Straße".utf8), into: &buffer)
        #expect(buffer == Array("strasse strasse".utf8))
    }
}
