/// Appends HTML to a byte buffer, escaping every untrusted string it is given.
///
/// Markup comes in as `StaticString` (`raw`), so only text written in source code can become
/// tags; strings from a document go through `text`, `attribute` or `url`, which escape them.
/// Escaping is the same in text and in double-quoted attribute values:
/// `&` `<` `>` `"` `'` become references, CR becomes `&#13;` (so a key survives the parser's
/// newline normalisation), U+2028/U+2029 become `&#x2028;`/`&#x2029;`, and NUL becomes U+FFFD
/// (the HTML parser would turn it into U+FFFD anyway, or drop it).
public struct HTMLWriter: Sendable {
    /// The bytes written so far: UTF-8 HTML.
    public internal(set) var bytes: [UInt8]

    /// Creates an empty writer with room for `capacity` bytes.
    public init(capacity: Int = 4096) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends trusted markup written in source code, as is.
    @inline(__always)
    public mutating func raw(_ markup: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: markup.utf8Start, count: markup.utf8CodeUnitCount))
    }

    /// Appends a string as escaped text content.
    public mutating func text(_ string: String) {
        escape(string)
    }

    /// Appends ` name="value"` with the value escaped.
    public mutating func attribute(_ name: StaticString, _ value: String) {
        bytes.append(0x20)
        raw(name)
        bytes.append(contentsOf: [0x3D, 0x22] as [UInt8])  // ="
        escape(value)
        bytes.append(0x22)
    }

    /// Appends ` name="url"` when `url` is safe to follow (see `HTMLWriter.isSafeURL`);
    /// otherwise appends nothing and returns false.
    @discardableResult
    public mutating func urlAttribute(_ name: StaticString, _ url: String) -> Bool {
        guard HTMLWriter.isSafeURL(url) else { return false }
        attribute(name, url)
        return true
    }

    /// Appends a number formatted the way number cells show it (see `formatNumber`).
    public mutating func number(_ value: Double) {
        appendNumber(value)
    }

    /// Appends trusted markup held in a `String`: the caller vouches that it is valid, safe HTML.
    public mutating func unsafeRaw(_ markup: String) {
        var markup = markup
        markup.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends bytes already rendered by this module (a row, a fragment).
    mutating func rendered(_ html: [UInt8]) {
        bytes.append(contentsOf: html)
    }

    /// Appends an ASCII decimal integer without grouping.
    mutating func decimal(_ value: Int) {
        if value < 0 { bytes.append(0x2D) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    // MARK: Escaping

    /// Whether `byte` needs more than a plain copy: NUL, CR, `"`, `&`, `'`, `<`, `>`,
    /// or 0xE2 (the lead byte of U+2028 and U+2029, checked further in `escapeSlow`).
    @inline(__always)
    static func isSpecial(_ byte: UInt8) -> Bool {
        let lowMask: UInt64 = 1 << 0x00 | 1 << 0x0D | 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E
        if byte < 64 { return (lowMask >> UInt64(byte)) & 1 != 0 }
        return byte == 0xE2
    }

    /// Escapes `string` into `bytes`, copying runs of plain bytes at once.
    @inline(__always)
    mutating func escape(_ string: String) {
        if let done: Void = string.utf8.withContiguousStorageIfAvailable({ escape(utf8: $0) }) {
            return done
        }
        var copy = string
        copy.withUTF8 { escape(utf8: $0) }
    }

    @inline(__always)
    mutating func escape(utf8 input: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var index = 0
        let count = input.count
        while index < count {
            let byte = input[index]
            if !HTMLWriter.isSpecial(byte) {
                index += 1
                continue
            }
            if index > runStart {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<index]))
            }
            index = escapeSpecial(input, at: index)
            runStart = index
        }
        if runStart < count {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<count]))
        }
    }

    /// Writes the escape for the special byte at `index`; returns the index after what it consumed.
    @inline(never)
    mutating func escapeSpecial(_ input: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        switch input[index] {
        case 0x26: raw("&amp;")
        case 0x3C: raw("&lt;")
        case 0x3E: raw("&gt;")
        case 0x22: raw("&quot;")
        case 0x27: raw("&#39;")
        case 0x0D: raw("&#13;")
        case 0x00: raw("\u{FFFD}")
        default:  // 0xE2: U+2028 is E2 80 A8, U+2029 is E2 80 A9.
            if index + 2 < input.count, input[index + 1] == 0x80,
                input[index + 2] == 0xA8 || input[index + 2] == 0xA9
            {
                raw(input[index + 2] == 0xA8 ? "&#x2028;" : "&#x2029;")
                return index + 3
            }
            bytes.append(0xE2)
        }
        return index + 1
    }
}
