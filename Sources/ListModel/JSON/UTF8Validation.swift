/// The offset of the first byte that starts an invalid UTF-8 sequence, or `nil` when all is valid.
///
/// Strict RFC 3629: rejects stray continuation bytes, overlong forms, UTF-16 surrogates
/// (U+D800…U+DFFF) and code points above U+10FFFF. The parser runs it on strings holding
/// non-ASCII bytes, before decoding them.
func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var i = 0
    let n = bytes.count
    while i < n {
        let b0 = bytes[i]
        if b0 < 0x80 {
            i += 1
            continue
        }
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // allowed range of the second byte
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: return i
        }
        guard i + length <= n else { return i }
        let b1 = bytes[i + 1]
        guard b1 >= low && b1 <= high else { return i }
        for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return i }
        i += length
    }
    return nil
}
