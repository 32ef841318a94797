/// A packed cell's value: strings as UTF-8 bytes in place.
public enum PackedValue {
    case text(UnsafeBufferPointer<UInt8>)
    case number(Double)
    case link(text: UnsafeBufferPointer<UInt8>, href: UnsafeBufferPointer<UInt8>)
    case image(src: UnsafeBufferPointer<UInt8>, alt: UnsafeBufferPointer<UInt8>, width: Double?, height: Double?)

    /// The value as a `CellValue` (strings copied out).
    public var cellValue: CellValue {
        switch self {
        case .text(let text): return .text(string(text))
        case .number(let number): return .number(number)
        case .link(let text, let href): return .link(text: string(text), href: string(href))
        case .image(let src, let alt, let width, let height):
            return .image(src: string(src), alt: string(alt), width: width, height: height)
        }
    }
}

@inline(__always)
private func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

/// A length: one byte below 0x80, else a 7-bit little-endian varint.
@inlinable @inline(__always)
func readLength(_ cursor: inout UnsafeRawPointer) -> Int {
    var byte = cursor.load(as: UInt8.self)
    cursor += 1
    if byte < 0x80 { return Int(byte) }
    var value = Int(byte & 0x7F)
    var shift = 7
    repeat {
        byte = cursor.load(as: UInt8.self)
        cursor += 1
        value |= Int(byte & 0x7F) << shift
        shift += 7
    } while byte >= 0x80
    return value
}

@inlinable @inline(__always)
func readDouble(_ cursor: UnsafeRawPointer) -> Double {
    Double(bitPattern: UInt64(littleEndian: cursor.loadUnaligned(as: UInt64.self)))
}

@inlinable @inline(__always)
func readBytes(_ cursor: inout UnsafeRawPointer) -> UnsafeBufferPointer<UInt8> {
    let length = readLength(&cursor)
    defer { cursor += length }
    return UnsafeBufferPointer(start: cursor.assumingMemoryBound(to: UInt8.self), count: length)
}
