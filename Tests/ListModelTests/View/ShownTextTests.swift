import ListModel
import Testing

/// The text a page shows for a cell, which search matches (API.md section 9).
@Suite struct ShownTextTests {
    @Test(
        arguments: [
            (0.0, "0"), (-0.0, "0"), (7, "7"), (999, "999"), (1000, "1,000"), (10_000, "10,000"),
            (-1234567, "-1,234,567"), (1234567.89, "1,234,567.89"), (58.9, "58.9"), (-0.5, "-0.5"),
            (1e-5, "1e-05"), (1e20, "1e+20"), (1e21, "1e+21"),
            (9_007_199_254_740_991, "9,007,199,254,740,991"), (-9_007_199_254_740_991, "-9,007,199,254,740,991"),
        ] as [(Double, String)])
    func numbersShowGroupedDigits(value: Double, shown: String) {
        #expect(CellValue.number(value).shownText == shown)
        #expect(CellValue.withFormattedNumber(value) { String(decoding: $0, as: UTF8.self) } == shown)
    }

    @Test func eachKindShowsItsText() {
        #expect(CellValue.text("Oslo").shownText == "Oslo")
        #expect(CellValue.link(text: "Wiki", href: "/w").shownText == "Wiki")
        #expect(CellValue.image(src: "/f.png", alt: "Flag").shownText == "Flag")
        #expect(CellValue.image(src: "/f.png", alt: "").shownText.isEmpty)
    }
}
