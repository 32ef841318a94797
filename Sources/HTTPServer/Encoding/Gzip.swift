import CZlib

/// gzip (RFC 1952) through the system zlib: whole buffers in, whole buffers out.
public enum Gzip {
    /// zlib's default level: within a few percent of level 9's size at a fraction of its time.
    public static let defaultLevel: Int32 = 6

    /// `bytes` as one gzip member.
    ///
    /// The output buffer is sized with `deflateBound`, so one `deflate` call with `Z_FINISH`
    /// always completes. zlib fails only on bad arguments or no memory, which traps.
    /// The corresponding C functions are `deflateInit2`, `deflateBound`, `deflate`, `deflateEnd`.
    public static func compress(_ bytes: [UInt8], level: Int32 = defaultLevel) -> [UInt8] {
        var stream = z_stream()
        guard czlib_deflate_init(&stream, level, 31) == Z_OK else { fatalError("deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let written = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out -> Int in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                guard deflate(&stream, Z_FINISH) == Z_STREAM_END else { fatalError("deflate did not finish within deflateBound") }
                return out.count - Int(stream.avail_out)
            }
        }
        output.removeSubrange(written...)
        return output
    }

    /// The bytes of a gzip stream (one or more members), or nil when it is not valid gzip or
    /// would inflate past `limit` bytes. For tests and clients; the server never inflates.
    /// The corresponding C functions are `inflateInit2`, `inflate`, `inflateEnd`.
    public static func decompress(_ bytes: [UInt8], limit: Int = 256 * 1024 * 1024) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_inflate_init(&stream, 31) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return bytes.withUnsafeBufferPointer { input -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, out.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return nil }
                switch status {
                case Z_STREAM_END:
                    if stream.avail_in == 0 { return output }
                    guard inflateReset(&stream) == Z_OK else { return nil }  // another member follows
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return nil  // truncated
                default:
                    return nil
                }
            }
        }
    }
}
