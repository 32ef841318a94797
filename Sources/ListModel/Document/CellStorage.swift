/// The cells of one row packed into one heap object: a table of offsets, then each cell as
/// its key's UTF-8 bytes, a kind tag and its value's bytes (strings as UTF-8 with a length,
/// numbers as 8 bytes). A row's cells cost one allocation of about the size of their JSON,
/// instead of an array of enums holding a `String` per key and value.
///
/// Immutable once made; `RowCells` makes a new one for every change.
@usableFromInline
final class CellStorage: ManagedBuffer<CellStorage.Header, UInt8> {
    @usableFromInline
    struct Header {
        /// The number of cells.
        @usableFromInline var count: Int32
        /// The bytes in use after the offset table.
        @usableFromInline var byteCount: Int32

        init(count: Int32, byteCount: Int32) {
            self.count = count
            self.byteCount = byteCount
        }
    }

    /// Kind tags; an image's optional width and height are flagged in the tag.
    @usableFromInline
    enum Tag {
        @usableFromInline static let text: UInt8 = 0
        @usableFromInline static let number: UInt8 = 1
        @usableFromInline static let link: UInt8 = 2
        @usableFromInline static let image: UInt8 = 3
        @usableFromInline static let hasWidth: UInt8 = 0x10
        @usableFromInline static let hasHeight: UInt8 = 0x20
    }

    /// A storage holding the cells encoded in `encoder`.
    static func make(_ encoder: CellEncoder) -> CellStorage {
        let tableBytes = encoder.offsets.count * 4
        let total = tableBytes + encoder.bytes.count
        // 16 bytes of slack after the cells, so that a key is compared with two 8-byte loads
        // (`PackedKey`) even at the end.
        let buffer = CellStorage.create(minimumCapacity: total + 16) { _ in
            Header(count: Int32(encoder.offsets.count), byteCount: Int32(encoder.bytes.count))
        }
        let storage = unsafeDowncast(buffer, to: CellStorage.self)
        storage.withUnsafeMutablePointerToElements { elements in
            let raw = UnsafeMutableRawPointer(elements)
            for (index, offset) in encoder.offsets.enumerated() {
                raw.storeBytes(of: UInt32(offset + tableBytes), toByteOffset: index * 4, as: UInt32.self)
            }
            encoder.bytes.withUnsafeBufferPointer { bytes in
                (raw + tableBytes).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            }
            (raw + total).initializeMemory(as: UInt8.self, repeating: 0, count: 16)
        }
        return storage
    }

    var count: Int { Int(header.count) }

    /// Calls `body` with the cells in place.
    @inlinable
    func withCells<R>(_ body: (PackedCells) throws -> R) rethrows -> R {
        let count = Int(header.count)
        return try withUnsafeMutablePointerToElements { elements in
            try body(PackedCells(base: UnsafeRawPointer(elements), count: count))
        }
    }
}

/// The cells of a row as stored, read in place: valid only inside the call that lends them
/// (`RowCells.withPackedCells`). For readers on a hot path, such as the HTML renderer.
public struct PackedCells {
    @usableFromInline let base: UnsafeRawPointer?
    /// The number of cells.
    public let count: Int

    @inlinable
    init(base: UnsafeRawPointer?, count: Int) {
        self.base = base
        self.count = count
    }

    /// No cells.
    @inlinable
    static var empty: PackedCells { PackedCells(base: nil, count: 0) }

    /// The cell at `index` (`0..<count`), in the row's order.
    @inlinable @inline(__always)
    public subscript(index: Int) -> PackedCell {
        precondition(index >= 0 && index < count, "cell index out of range")
        let offset = Int(base!.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
        return PackedCell(start: base! + offset)
    }

    /// The position of the cell whose key is `key`, trying `hint` first (as `index(ofKey:hint:)`).
    @inlinable @inline(__always)
    public func index(of key: PackedKey, hint: Int) -> Int? {
        if hint < count, self[hint].matches(key) { return hint }
        for index in 0..<count where index != hint && self[index].matches(key) { return index }
        return nil
    }

    /// The position of the cell whose key is `key` (UTF-8), trying `hint` first. Keys compare
    /// byte for byte (API.md "Keys"): a canonically equivalent key with other bytes is another.
    @inlinable @inline(__always)
    public func index(ofKey key: UnsafeBufferPointer<UInt8>, hint: Int) -> Int? {
        if hint < count, self[hint].keyEquals(key) { return hint }
        for index in 0..<count where index != hint && self[index].keyEquals(key) { return index }
        return nil
    }
}

/// One packed cell: its key and value, as bytes in place.
public struct PackedCell {
    @usableFromInline let start: UnsafeRawPointer

    @inlinable
    init(start: UnsafeRawPointer) { self.start = start }

    /// The key's UTF-8 bytes.
    @inlinable @inline(__always)
    public var key: UnsafeBufferPointer<UInt8> {
        var cursor = start
        let length = readLength(&cursor)
        return UnsafeBufferPointer(start: cursor.assumingMemoryBound(to: UInt8.self), count: length)
    }

    /// Whether the key's bytes are `other`.
    @inlinable @inline(__always)
    func keyEquals(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        var cursor = start
        let length = readLength(&cursor)
        guard length == other.count else { return false }
        let bytes = cursor.assumingMemoryBound(to: UInt8.self)
        var index = 0
        while index < length {
            guard bytes[index] == other[index] else { return false }
            index &+= 1
        }
        return true
    }

    /// Whether the key is `key`, byte for byte: its first 16 encoded bytes compared at once.
    @inlinable @inline(__always)
    func matches(_ key: PackedKey) -> Bool {
        let head = start.loadUnaligned(as: SIMD2<UInt64>.self) & key.mask
        guard head == key.head else { return false }
        guard key.encoded.count > 16 else { return true }
        return matchesTail(key)
    }

    @usableFromInline
    func matchesTail(_ key: PackedKey) -> Bool {
        return key.encoded.withUnsafeBufferPointer { encoded in
            for index in 16..<encoded.count where start.load(fromByteOffset: index, as: UInt8.self) != encoded[index] {
                return false
            }
            return true
        }
    }

    /// The text of a text cell, in place; nil for other kinds (the common case, read quickly).
    @inlinable @inline(__always)
    public var text: UnsafeBufferPointer<UInt8>? {
        var cursor = start
        cursor += readLength(&cursor)
        guard cursor.load(as: UInt8.self) == CellStorage.Tag.text else { return nil }
        cursor += 1
        return readBytes(&cursor)
    }

    /// The value: its kind and, in place, its strings and numbers.
    @inlinable @inline(__always)
    public var value: PackedValue {
        var cursor = start
        cursor += readLength(&cursor)
        let tag = cursor.load(as: UInt8.self)
        cursor += 1
        switch tag & 0x0F {
        case CellStorage.Tag.text:
            return .text(readBytes(&cursor))
        case CellStorage.Tag.number:
            return .number(readDouble(cursor))
        case CellStorage.Tag.link:
            let text = readBytes(&cursor)
            return .link(text: text, href: readBytes(&cursor))
        default:
            let src = readBytes(&cursor)
            let alt = readBytes(&cursor)
            var width: Double?
            var height: Double?
            if tag & CellStorage.Tag.hasWidth != 0 {
                width = readDouble(cursor)
                cursor += 8
            }
            if tag & CellStorage.Tag.hasHeight != 0 { height = readDouble(cursor) }
            return .image(src: src, alt: alt, width: width, height: height)
        }
    }
}

/// A cell key prepared for finding its cell among packed cells quickly (`PackedCells.index(of:hint:)`):
/// make one per column, not per row.
public struct PackedKey: Sendable {
    /// The key as packed cells store it (length, then UTF-8), its first 16 bytes as two words,
    /// zero-padded, and the mask of those that count.
    @usableFromInline let head: SIMD2<UInt64>
    @usableFromInline let mask: SIMD2<UInt64>
    /// The whole encoded key, when longer than 16 bytes (else empty).
    @usableFromInline let encoded: [UInt8]
    /// The key.
    @usableFromInline let key: String

    public init(_ key: String) {
        self.key = key
        var head = SIMD2<UInt64>(0, 0)
        var mask = SIMD2<UInt64>(0, 0)
        let length = key.utf8.count
        if length < 16 {  // one length byte and up to 15 key bytes: no allocation
            var copy = key
            copy.withUTF8 { utf8 in
                withUnsafeMutableBytes(of: &head) { headBytes in
                    headBytes[0] = UInt8(length)
                    if length > 0 { (headBytes.baseAddress! + 1).copyMemory(from: utf8.baseAddress!, byteCount: length) }
                }
            }
            let used = UInt64(length + 1)  // bytes that count: 1...16
            mask = SIMD2(
                used >= 8 ? ~0 : (1 << (used * 8)) - 1,
                used <= 8 ? 0 : used >= 16 ? ~0 : (1 << ((used - 8) * 8)) - 1)
            encoded = []
        } else {
            var encoder = CellEncoder()
            encoder.appendString(key)
            let bytes = encoder.bytes
            withUnsafeMutableBytes(of: &head) { headBytes in
                withUnsafeMutableBytes(of: &mask) { maskBytes in
                    for index in 0..<16 {
                        headBytes[index] = bytes[index]
                        maskBytes[index] = 0xFF
                    }
                }
            }
            encoded = bytes
        }
        self.head = head
        self.mask = mask
    }
}
