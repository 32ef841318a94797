// The primary form of an ASCII text (most texts), written in place at its exact length: a
// view's sort values are mostly this, and scalar by scalar (decoding, folding, one append at a
// time) it took most of a text sort's time.

extension SortValue {
    /// `appendPrimary` for a text that is all ASCII; false, and `out` untouched, for any other.
    static func appendPrimary(ascii bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
        // The form's length: a digit run is 5 bytes and its significant digits, 0x00 and 0x01 two.
        var length = 0
        var digits = -1  // in a run: its significant digits so far
        for byte in bytes {
            if byte >= 0x80 { return false }
            if byte >= 0x30 && byte <= 0x39 {
                if digits < 0 {
                    digits = 0
                    length += 5
                }
                if byte != 0x30 || digits > 0 {
                    digits += 1
                    length += 1
                }
            } else {
                digits = -1
                length += byte <= 1 ? 2 : 1
            }
        }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: length))
        out.withUnsafeMutableBufferPointer { form in
            var at = start
            var runStart = -1
            for byte in bytes {
                if byte >= 0x30 && byte <= 0x39 {
                    if runStart < 0 {
                        runStart = at
                        form[at] = 0x30  // the count's 4 bytes are zero already
                        at += 5
                    }
                    if byte != 0x30 || at > runStart + 5 {
                        form[at] = byte
                        at += 1
                    }
                    continue
                }
                if runStart >= 0 {
                    writeRunCount(at: runStart, end: at, in: form)
                    runStart = -1
                }
                if byte <= 1 {
                    form[at] = 0x01
                    form[at + 1] = byte + 1
                    at += 2
                } else {
                    form[at] = CaseFolding.fold(ascii: byte)
                    at += 1
                }
            }
            if runStart >= 0 { writeRunCount(at: runStart, end: at, in: form) }
        }
        return true
    }
}
