import ServerSupport

/// HTTP/1.1 chunked framing of a stream's writes (RFC 9112 section 7.1): each write is one chunk,
/// `<size in hex>\r\n<bytes>\r\n`, and the stream ends with the last chunk `0\r\n\r\n`.
///
/// Chunks let a client tell where each write ends: one that reads in fixed pieces (python
/// `requests`' `iter_lines()` asks for 512 bytes) gets every chunk at once instead of waiting for
/// more bytes, as it would on a body delimited by the connection's end.
enum ChunkFraming {
    /// The line end after each chunk's bytes.
    static let lineEnd = SharedBytes([0x0D, 0x0A])
    /// The last chunk, with no trailer fields: the body is complete.
    static let lastChunk = SharedBytes(Array("0\r\n\r\n".utf8))

    /// The largest buffer `chunk(of:)` frames: a larger one is sent as three pieces, with no copy.
    static let maxFramedCopy = 64 * 1024

    /// `bytes` framed as one chunk, made once and kept with them (`SharedBytes.framed`), so every
    /// stream that sends them sends one buffer. At most `maxFramedCopy` bytes.
    static func chunk(of bytes: SharedBytes) -> SharedBytes {
        if let framed = bytes.framed.load() { return framed }
        var framed: [UInt8] = []
        framed.reserveCapacity(framedCount(bytes.count))
        withHead(bytes.count) { framed += $0 }
        framed += bytes.bytes
        framed += [0x0D, 0x0A]
        return bytes.framed.storeIfNil(SharedBytes(framed))
    }

    /// `count` bytes of payload as they go on the wire, framed.
    static func framedCount(_ count: Int) -> Int { headLength(count) + count + 2 }

    /// `parts` (of `count` bytes, more than 0) framed as one chunk.
    static func framed(_ parts: [SharedBytes], count: Int) -> [SharedBytes] {
        var framed: [SharedBytes] = []
        framed.reserveCapacity(parts.count + 2)
        framed.append(withHead(count) { SharedBytes(Array($0)) })
        framed += parts
        framed.append(lineEnd)
        return framed
    }

    /// Calls `body` with the chunk head for `count` bytes (`<hex>\r\n`), made on the stack.
    static func withHead<T>(_ count: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 18) { buffer in
            let length = headLength(count)
            var value = count
            var index = length - 3
            repeat {
                let digit = UInt8(value & 0xF)
                buffer[index] = digit < 10 ? 0x30 + digit : 0x61 + digit - 10
                value >>= 4
                index -= 1
            } while value > 0
            buffer[length - 2] = 0x0D
            buffer[length - 1] = 0x0A
            return body(UnsafeRawBufferPointer(start: buffer.baseAddress, count: length))
        }
    }

    /// The length of the head for `count` bytes: its hex digits and CRLF.
    private static func headLength(_ count: Int) -> Int {
        var digits = 1
        var value = count >> 4
        while value > 0 {
            digits += 1
            value >>= 4
        }
        return digits + 2
    }
}

extension SharedBytes {
    /// The bytes as a raw buffer (valid as long as this object lives).
    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base.pointer, count: count) }
}
