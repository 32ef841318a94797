/// Unicode default case folding: full folding, CaseFolding.txt status C and F, without the
/// Turkic (T) or simple-only (S) mappings. No locale, so every instance folds alike.
///
/// The standard library has no folding API; the fold is derived from the scalar properties: a
/// scalar that does not change when case folded stays, any other becomes the lowercase mapping
/// of its uppercase mapping, folded again (`ẞ` → `ß` → `ss`), except Cherokee, which folds to
/// its uppercase letters, and the few scalars of `foldsToItsDecomposition`. Checked against
/// Python's `str.casefold` (Unicode 14) for every scalar when written: equal except for scalars
/// added since. CaseFoldingTests check cases from CaseFolding.txt.
enum CaseFolding {
    /// Calls `body` with each scalar of the folded form of `scalar`.
    @inline(__always)
    static func fold(_ scalar: Unicode.Scalar, _ body: (Unicode.Scalar) -> Void) {
        let value = scalar.value
        if value < 0x80 { return body(Unicode.Scalar(fold(ascii: UInt8(value)))) }
        guard scalar.properties.changesWhenCaseFolded || foldsToItsDecomposition.contains(value) else {
            return body(scalar)
        }
        // Cherokee small letters fold to capital letters (Unicode 8's stability exception).
        if (0x13F8...0x13FD).contains(value) { return body(Unicode.Scalar(value - 8)!) }
        if (0xAB70...0xABBF).contains(value) { return body(Unicode.Scalar(value - 0xAB70 + 0x13A0)!) }
        foldByCaseMappings(scalar, depth: 0, body)
    }

    /// The fold of an ASCII byte: `A`-`Z` lowered, any other as it is.
    @inline(__always)
    static func fold(ascii byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    /// Scalars whose fold is canonically equivalent to them, so `changesWhenCaseFolded` (defined
    /// on the decomposed form) is false, but whose CaseFolding.txt mapping (F) is other code points:
    /// `ǰ` → `j` U+030C, `ΐ` → `ι` U+0308 U+0301, U+1FBE → `ι`.
    private static let foldsToItsDecomposition: Set<UInt32> = [
        0x01F0, 0x0390, 0x03B0, 0x1E96, 0x1E97, 0x1E98, 0x1E99, 0x1F50, 0x1F52, 0x1F54, 0x1F56, 0x1FB6,
        0x1FBE, 0x1FC6, 0x1FD2, 0x1FD3, 0x1FD6, 0x1FD7, 0x1FE2, 0x1FE3, 0x1FE4, 0x1FE6, 0x1FE7, 0x1FF6,
    ]

    private static func foldByCaseMappings(_ scalar: Unicode.Scalar, depth: Int, _ body: (Unicode.Scalar) -> Void) {
        for upper in scalar.properties.uppercaseMapping.unicodeScalars {
            for lower in upper.properties.lowercaseMapping.unicodeScalars {
                if depth < 2, lower != scalar, lower.properties.changesWhenCaseFolded {
                    foldByCaseMappings(lower, depth: depth + 1, body)
                } else {
                    body(lower)
                }
            }
        }
    }

    /// The folded form of UTF-8 `bytes` (invalid sequences read as U+FFFD), as UTF-8.
    static func foldedUTF8(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount)
        forEachFoldedScalar(bytes) { appendUTF8($0, to: &out) }
        return out
    }

    /// Replaces `out`'s bytes with the folded form of UTF-8 `bytes` (reusing its storage).
    static func fold(_ bytes: some Sequence<UInt8>, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        if bytes.withContiguousStorageIfAvailable({ foldASCII($0, into: &out) }) == true { return }
        forEachFoldedScalar(bytes) { appendUTF8($0, to: &out) }
    }

    /// Appends the folded form of `bytes` to `out` at once when they are all ASCII (`A`-`Z`
    /// lowered: most texts a search reads); false, and `out` untouched, otherwise.
    static func foldASCII(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) -> Bool {
        var any: UInt8 = 0
        for byte in bytes { any |= byte }
        guard any < 0x80 else { return false }
        let start = out.count
        out.append(contentsOf: bytes)
        out.withUnsafeMutableBufferPointer { folded in
            for index in start..<folded.count { folded[index] = fold(ascii: folded[index]) }
        }
        return true
    }

    /// The folded form of `text`.
    static func folded(_ text: String) -> String {
        String(decoding: foldedUTF8(text.utf8), as: UTF8.self)
    }

    /// Calls `body` with each scalar of the folded form of UTF-8 `bytes`.
    @inline(__always)
    static func forEachFoldedScalar(_ bytes: some Sequence<UInt8>, _ body: (Unicode.Scalar) -> Void) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): fold(scalar, body)
            case .emptyInput: return
            case .error: body("\u{FFFD}")
            }
        }
    }
}

/// Appends the UTF-8 form of `scalar`.
@inline(__always)
func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
    let value = scalar.value
    if value < 0x80 {
        out.append(UInt8(value))
    } else {
        UTF8.encode(scalar) { out.append($0) }
    }
}

/// Whether `haystack` holds `needle` as a contiguous run of bytes (an empty needle always).
func containsBytes(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty else { return true }
    guard haystack.count >= needle.count else { return false }
    let first = needle[0]
    var start = 0
    let last = haystack.count - needle.count
    while start <= last {
        if haystack[start] == first {
            var offset = 1
            while offset < needle.count, haystack[start + offset] == needle[offset] { offset += 1 }
            if offset == needle.count { return true }
        }
        start += 1
    }
    return false
}
