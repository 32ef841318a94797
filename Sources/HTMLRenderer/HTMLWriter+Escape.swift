extension HTMLWriter {
    /// Escapes `string` (see `HTMLWriter` for the rules): one call per string, with the block
    /// loop inlined.
    @inline(never)
    mutating func escape(_ string: String) {
        if let done: Void = string.utf8.withContiguousStorageIfAvailable({ escape(utf8: $0) }) {
            return done
        }
        escapeNonContiguous(string)
    }

    /// Escapes UTF-8 bytes (a packed cell's text): one call per string, as for `escape(_:)`.
    @inline(never)
    mutating func escapeBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        escape(utf8: bytes)
    }

    /// `escape` for a string whose UTF-8 is not stored contiguously (bridged, on some platforms).
    @inline(never)
    private mutating func escapeNonContiguous(_ string: String) {
        var copy = string
        copy.withUTF8 { escape(utf8: $0) }
    }

    /// Escapes UTF-8 bytes 16 at a time: a block is stored to the output as it is, the output
    /// advances over its plain bytes, and each special byte of the block (found in a bit mask)
    /// is replaced by its escape, the rest of the block stored again after it. The last 1–15
    /// bytes are gathered into registers with in-bounds loads, padded with spaces.
    ///
    /// Blocks live in registers: rebuilding one in memory from smaller stores and loading it
    /// back stalls the CPU (no store-to-load forwarding). Input of up to 128 bytes reserves room
    /// for its worst case (6 bytes per byte, plus 32 for a block store) at once; longer input
    /// keeps room for the rest of the input plus 32 bytes ahead of the output and, since escapes
    /// eat into that slack, checks again at each special byte. Assumes a little-endian CPU.
    @inline(__always)
    mutating func escape(utf8 input: UnsafeBufferPointer<UInt8>) {
        let length = input.count
        guard length > 0, let source = input.baseAddress else { return }
        reserve(length <= 128 ? length &* 6 &+ 32 : length &+ 32)
        var out = base + count
        var index = 0
        while length &- index >= 16 {
            let block = UnsafeRawPointer(source + index).loadUnaligned(as: SIMD2<UInt64>.self)
            index = escapeBlock(block, source, start: index, end: index &+ 16, length: length, to: &out)
        }
        if index < length {
            let block = HTMLWriter.paddedBlock(source + index, count: length &- index)
            _ = escapeBlock(block, source, start: index, end: length, length: length, to: &out)
        }
        count = out - base
    }

    /// Escapes `block`, the bytes of `source` from `start` (up to `end`), to `out`; returns the
    /// index after it (past `end` when an escaped sequence runs over the block's end).
    @inline(__always)
    private mutating func escapeBlock(
        _ block: SIMD2<UInt64>, _ source: UnsafePointer<UInt8>, start: Int, end: Int, length: Int,
        to out: inout UnsafeMutablePointer<UInt8>
    ) -> Int {
        UnsafeMutableRawPointer(out).storeBytes(of: block, as: SIMD2<UInt64>.self)
        var specials = HTMLWriter.specialLanes(unsafeBitCast(block, to: SIMD16<UInt8>.self))
        var index = start
        while specials != 0 {
            let at = start &+ specials.trailingZeroBitCount
            out += at &- index
            index = at
            if length > 128 { ensureEscapeRoom(&out, remaining: length &- index) }
            index &+= HTMLWriter.writeEscape(source, at: index, length: length, to: &out)
            // The rest of the block again, after the escape.
            let consumed = index &- start
            let rest = HTMLWriter.shiftedDown(block, bytes: consumed)
            UnsafeMutableRawPointer(out).storeBytes(of: rest, as: SIMD2<UInt64>.self)
            specials &= ~0 &<< UInt32(truncatingIfNeeded: consumed)
        }
        if index < end {
            out += end &- index
            index = end
        }
        return index
    }

    /// `block` moved down by `bytes` (1–18) bytes towards its start; zeros come in at the end.
    @inline(__always)
    private static func shiftedDown(_ block: SIMD2<UInt64>, bytes: Int) -> SIMD2<UInt64> {
        let bits = UInt64(truncatingIfNeeded: bytes &* 8)
        if bits >= 64 { return SIMD2(block[1] >> (bits &- 64), 0) }
        return SIMD2(block[0] &>> bits | block[1] &<< (64 &- bits), block[1] &>> bits)
    }

    /// The `count` (1–15) bytes at `bytes`, padded with spaces (plain) to 16.
    ///
    /// Every load stays inside the `count` bytes and inside one 8-byte half of them: a short
    /// string's bytes were just stored to the stack as two 8-byte words, and a load that
    /// straddles two stores would wait for them (no store-to-load forwarding).
    @inline(__always)
    static func paddedBlock(_ bytes: UnsafePointer<UInt8>, count: Int) -> SIMD2<UInt64> {
        let spaces: UInt64 = 0x2020_2020_2020_2020
        let n = UInt64(truncatingIfNeeded: count)
        if count >= 8 {
            let low = UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self)
            let high = count == 8 ? 0 : HTMLWriter.shortWord(bytes + 8, count: count &- 8)
            return SIMD2(UInt64(littleEndian: low), high | spaces &<< ((n &- 8) &* 8))
        }
        return SIMD2(HTMLWriter.shortWord(bytes, count: count) | spaces &<< (n &* 8), spaces)
    }

    /// The `count` (1–7) bytes at `bytes` as the low bytes of a word, the rest zero.
    @inline(__always)
    private static func shortWord(_ bytes: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        let n = UInt64(truncatingIfNeeded: count)
        if count >= 4 {
            let raw = UnsafeRawPointer(bytes)
            let head = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let tail = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
            return head | tail &<< ((n &- 4) &* 8)
        }
        let middle = count &>> 1
        return UInt64(bytes[0]) | UInt64(bytes[middle]) &<< UInt64(middle &* 8)
            | UInt64(bytes[count &- 1]) &<< ((n &- 1) &* 8)
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
        // The escapes of the ASCII specials, 8 bytes each (the last holds the length), at
        // (byte + byte >> 4) & 15: NUL 0, > 1, " 4, & 8, ' 9, CR 13, < 15.
        let table: StaticString = """
            \u{FFFD}\0\0\0\0\u{3}&gt;\0\0\0\u{4}\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\
            &quot;\0\u{6}\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\
            &amp;\0\0\u{5}&#39;\0\0\u{5}\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\
            \0\0\0\0\0\0\0\0&#13;\0\0\u{5}\0\0\0\0\0\0\0\0&lt;\0\0\0\u{4}
            """
        let slot = Int(truncatingIfNeeded: (byte &+ byte &>> 4) & 15)
        let escape = UnsafeRawPointer(table.utf8Start).loadUnaligned(fromByteOffset: slot &* 8, as: UInt64.self)
        UnsafeMutableRawPointer(out).storeBytes(of: escape, as: UInt64.self)
        out += Int(truncatingIfNeeded: UInt64(littleEndian: escape) &>> 56)
        return 1
    }
}
