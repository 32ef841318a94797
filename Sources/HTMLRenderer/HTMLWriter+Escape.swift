extension HTMLWriter {
    /// Escapes `string` (see `HTMLWriter` for the rules).
    @inline(__always)
    mutating func escape(_ string: String) {
        if let done: Void = string.utf8.withContiguousStorageIfAvailable({ escape(utf8: $0) }) {
            return done
        }
        var copy = string
        copy.withUTF8 { escape(utf8: $0) }
    }

    /// Escapes UTF-8 bytes 16 at a time: a block is stored to the output as it is, the output
    /// advances over its plain bytes, and each special byte of the block (found in a bit mask)
    /// is replaced by its escape, the bytes after it stored again from the input. Loads read up
    /// to 31 bytes past a block's start, so the last 1–31 bytes go through a padded copy on the
    /// stack and no load reads past the input.
    ///
    /// Keeps room for the rest of the input plus 32 bytes (a block store and an escape) ahead of
    /// the output; escapes eat into that slack, so it is checked again at each special byte.
    mutating func escape(utf8 input: UnsafeBufferPointer<UInt8>) {
        let length = input.count
        guard length > 0, let source = input.baseAddress else { return }
        reserve(length &+ 32)
        var out = base + count
        var index = 0
        while length &- index >= 32 {
            escapeBlock(source, at: &index, length: length, to: &out)
        }
        if index < length {
            // The tail, padded with spaces (plain) to 48 bytes.
            let tailLength = length &- index
            var padded = (SIMD16<UInt8>(repeating: 0x20), SIMD16<UInt8>(repeating: 0x20), SIMD16<UInt8>(repeating: 0x20))
            withUnsafeMutableBytes(of: &padded) { padded in
                let tail = padded.baseAddress!.assumingMemoryBound(to: UInt8.self)
                if tailLength >= 16 {
                    let first = UnsafeRawPointer(source + index).loadUnaligned(as: SIMD16<UInt8>.self)
                    let last = UnsafeRawPointer(source + (length &- 16)).loadUnaligned(as: SIMD16<UInt8>.self)
                    padded.storeBytes(of: first, as: SIMD16<UInt8>.self)
                    padded.storeBytes(of: last, toByteOffset: tailLength &- 16, as: SIMD16<UInt8>.self)
                } else {
                    HTMLWriter.copy(source + index, to: tail, count: tailLength)
                }
                var at = 0
                while at < tailLength {
                    escapeBlock(tail, at: &at, length: tailLength, to: &out)
                }
            }
        }
        count = out - base
    }

    /// Escapes the 16-byte block at `source[index]` (or what is left of `length` bytes, when
    /// the source is padded), advancing `index` and `out`. `source` must be readable 32 bytes
    /// from `index`.
    @inline(__always)
    private mutating func escapeBlock(
        _ source: UnsafePointer<UInt8>, at index: inout Int, length: Int, to out: inout UnsafeMutablePointer<UInt8>
    ) {
        let start = index
        let block = UnsafeRawPointer(source + start).loadUnaligned(as: SIMD16<UInt8>.self)
        UnsafeMutableRawPointer(out).storeBytes(of: block, as: SIMD16<UInt8>.self)
        var specials = HTMLWriter.specialLanes(block)
        while specials != 0 {
            let at = start &+ specials.trailingZeroBitCount
            out += at &- index
            index = at
            ensureEscapeRoom(&out, remaining: length &- index)
            index &+= HTMLWriter.writeEscape(source, at: index, length: length, to: &out)
            // The bytes up to the next special (or the block's end) again, after the escape.
            let rest = UnsafeRawPointer(source + index).loadUnaligned(as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(out).storeBytes(of: rest, as: SIMD16<UInt8>.self)
            specials &= ~0 &<< UInt32(truncatingIfNeeded: index &- start)
        }
        let end = min(start &+ 16, length)
        if index < end {
            out += end &- index
            index = end
        }
    }

    /// Makes sure `remaining` input bytes plus 32 fit after `out`, moving `out` if the buffer grows.
    @inline(__always)
    private mutating func ensureEscapeRoom(_ out: inout UnsafeMutablePointer<UInt8>, remaining: Int) {
        if capacity &- (out - base) < remaining &+ 32 {
            count = out - base
            reserve(remaining &* 2 &+ 64)
            out = base + count
        }
    }

    /// A bit per byte of `block` (bit 0 for the first) that needs more than a copy: NUL, CR,
    /// `"`, `&`, `'`, `<`, `>`, and 0xE2 (the lead byte of U+2028 and U+2029).
    @inline(__always)
    static func specialLanes(_ block: SIMD16<UInt8>) -> UInt32 {
        /// 0x80 in the lanes that are zero (no carry between lanes, so exact).
        @inline(__always) func zeroLanes(_ lanes: SIMD16<UInt8>) -> SIMD16<UInt8> { (lanes &- 1) & ~lanes }
        let special =
            zeroLanes(block) | zeroLanes(block ^ 0x0D) | zeroLanes(block ^ 0x22)
            | zeroLanes((block | 0x01) ^ 0x27)  // & '
            | zeroLanes((block | 0x02) ^ 0x3E)  // < >
            | zeroLanes(block ^ 0xE2)
        let words = unsafeBitCast(special, to: SIMD2<UInt64>.self)
        /// Gathers the top bits of the 8 bytes of `word` into one byte (lane k to bit k).
        @inline(__always) func gather(_ word: UInt64) -> UInt32 {
            UInt32(truncatingIfNeeded: ((word & 0x8080_8080_8080_8080) &>> 7 &* 0x0102_0408_1020_4080) &>> 56)
        }
        return gather(words[0]) | gather(words[1]) &<< 8
    }

    /// Writes the escape of the special byte at `source[index]` to `out` (room for 8 bytes) and
    /// advances `out`; returns the input bytes consumed.
    @inline(__always)
    static func writeEscape(
        _ source: UnsafePointer<UInt8>, at index: Int, length: Int, to out: inout UnsafeMutablePointer<UInt8>
    ) -> Int {
        let byte = source[index]
        if byte == 0xE2 {
            // U+2028 is E2 80 A8, U+2029 is E2 80 A9; any other E2 sequence is copied.
            if index &+ 2 < length, source[index &+ 1] == 0x80, source[index &+ 2] & 0xFE == 0xA8 {
                let escape: StaticString = source[index &+ 2] == 0xA8 ? "&#x2028;" : "&#x2029;"
                out.update(from: escape.utf8Start, count: 8)
                out += 8
                return 3
            }
            out.pointee = 0xE2
            out += 1
            return 1
        }
        let escape = escapeWord(byte)
        UnsafeMutableRawPointer(out).storeBytes(of: escape.littleEndian, as: UInt64.self)
        out += Int(truncatingIfNeeded: escape &>> 56)
        return 1
    }

    /// The escape of an ASCII special byte as up to 7 little-endian bytes, with its length in the
    /// top byte (a constant table, not a jump).
    @inline(__always)
    private static func escapeWord(_ byte: UInt8) -> UInt64 {
        switch byte {
        case 0x26: return 0x0500_003B_706D_6126  // &amp;
        case 0x3C: return 0x0400_0000_3B74_6C26  // &lt;
        case 0x3E: return 0x0400_0000_3B74_6726  // &gt;
        case 0x22: return 0x0600_3B74_6F75_7126  // &quot;
        case 0x27: return 0x0500_003B_3933_2326  // &#39;
        case 0x0D: return 0x0500_003B_3331_2326  // &#13;
        default: return 0x0300_0000_00BD_BFEF  // NUL: U+FFFD
        }
    }
}
