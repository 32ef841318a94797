/// A position in a view between two rows: the view's fingerprint and the view key (sort value,
/// order key) of the row before it, with that row's section.
///
/// Like `Cursor`, it positions by key (a binary search), so rows inserted or deleted elsewhere,
/// or its own row deleted, never shift it. Clients see it only as opaque text (`encoded`).
public struct ViewCursor: Sendable, Hashable {
    /// The fingerprint of the query whose view made the cursor (`ListQuery.fingerprint`).
    public var fingerprint: UInt64
    /// The sort value of the last row delivered (empty without a sort), at most
    /// `maxSortValueBytes` of it (`sortValueTruncated` tells).
    var sortValue: SortValue
    var sortValueTruncated: Bool
    /// The order key of the last row delivered.
    public var orderKey: OrderKey
    /// The key of that row.
    public var rowKey: String
    /// The key of that row's section.
    public var sectionKey: String

    /// The longest sort value a cursor carries, in bytes. A longer one is made whole again from
    /// the cursor's row; only when that row is gone or changed are rows whose sort values share
    /// these first bytes with the cursor's placed by order key among themselves (approximately).
    static let maxSortValueBytes = 512

    init(fingerprint: UInt64, key: ViewKey, rowKey: String, sectionKey: String) {
        self.fingerprint = fingerprint
        sortValueTruncated = key.sortValue.bytes.count > Self.maxSortValueBytes
        sortValue = sortValueTruncated ? SortValue(bytes: Array(key.sortValue.bytes.prefix(Self.maxSortValueBytes))) : key.sortValue
        orderKey = key.orderKey
        self.rowKey = rowKey
        self.sectionKey = sectionKey
    }

    /// Whether a row with view key `key` comes after this cursor in a view sorted `descending`.
    func isBefore(_ key: ViewKey, descending: Bool) -> Bool {
        key.sortValue.bytes.withUnsafeBufferPointer { isBefore($0, key.orderKey, descending: descending) }
    }

    /// `isBefore(_:descending:)` for a key given as its sort value's bytes and its order key.
    func isBefore(_ value: UnsafeBufferPointer<UInt8>, _ orderKey: OrderKey, descending: Bool) -> Bool {
        // A cut cursor compares with as many bytes of the row's value.
        let value = sortValueTruncated ? UnsafeBufferPointer(rebasing: value.prefix(Self.maxSortValueBytes)) : value
        return sortValue.bytes.withUnsafeBufferPointer { mine in
            ViewKey.precedes(mine, self.orderKey, value, orderKey, descending: descending)
        }
    }
}

// The text form: base64url (no padding) of
// [version 2][fingerprint: 8 bytes][flags: 1 byte, bit 0 = sort value truncated]
// [sort value length: 2 bytes][sort value][order key length: 2 bytes][order key]
// [row key length − 1: 1 byte][row key][section key length: 2 bytes][section key]
// [FNV-1a 32 checksum: 4 bytes]. Version 1 is `Cursor`'s.

extension ViewCursor {
    static let version: UInt8 = 2
    /// The longest cursor text `init(decoding:)` reads.
    public static let maxEncodedLength = 2_800

    /// The opaque, URL-safe text clients send back (`?after=`, `until=`).
    public var encoded: String {
        let order = Array(orderKey.rawValue.utf8)
        let row = Array(rowKey.utf8)
        let section = Array(sectionKey.utf8)
        let value = sortValue.bytes
        precondition(
            order.count <= Cursor.maxOrderKeyBytes && (1...256).contains(row.count) && section.count <= 256,
            "cursor keys out of range")
        var bytes: [UInt8] = [Self.version]
        bytes += (0..<8).map { UInt8(truncatingIfNeeded: fingerprint >> (56 - 8 * $0)) }
        bytes.append(sortValueTruncated ? 1 : 0)
        bytes += [UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
        bytes += [UInt8(order.count >> 8), UInt8(order.count & 0xFF)] + order
        bytes += [UInt8(row.count - 1)] + row
        bytes += [UInt8(section.count >> 8), UInt8(section.count & 0xFF)] + section
        return sealedCursorText(bytes)
    }

    /// Reads a view cursor from its text; anything but an unaltered `encoded` string is an error,
    /// and a list cursor (`Cursor`) is `CursorError.otherView`.
    public init(decoding text: String) throws(CursorError) {
        let bytes = try checkedCursorBytes(text, maxLength: Self.maxEncodedLength, minimum: 5)
        let body = Array(bytes[..<(bytes.count - 4)])
        if body.first == Cursor.version { throw .otherView }
        guard body.first == Self.version else { throw .unsupportedVersion(body.first ?? 0) }
        var reader = ByteReader(bytes: body, offset: 1)
        guard let fingerprintBytes = reader.read(8), let flags = reader.read(1),
            let value = reader.readPrefixed(lengthBytes: 2), let order = reader.readPrefixed(lengthBytes: 2),
            let rowLength = reader.read(1), let row = reader.read(Int(rowLength.first!) + 1),
            let section = reader.readPrefixed(lengthBytes: 2), reader.offset == body.count,
            flags.first! <= 1, value.count <= Self.maxSortValueBytes, order.count <= Cursor.maxOrderKeyBytes,
            section.count <= 256
        else { throw .malformed }
        let orderKey = OrderKey(rawValue: String(decoding: order, as: UTF8.self))
        guard orderKey.isWellFormed, let rowKey = String(validating: row, as: UTF8.self),
            let sectionKey = String(validating: section, as: UTF8.self)
        else { throw .malformed }
        fingerprint = fingerprintBytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        sortValue = SortValue(bytes: Array(value))
        sortValueTruncated = flags.first! == 1
        self.orderKey = orderKey
        self.rowKey = rowKey
        self.sectionKey = sectionKey
    }
}

/// Reads fields from the front of a byte array.
private struct ByteReader {
    let bytes: [UInt8]
    var offset: Int

    mutating func read(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, offset + count <= bytes.count else { return nil }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    /// A field preceded by its big-endian length.
    mutating func readPrefixed(lengthBytes: Int) -> ArraySlice<UInt8>? {
        guard let length = read(lengthBytes) else { return nil }
        return read(length.reduce(0) { $0 << 8 | Int($1) })
    }
}

extension CursorError {
    /// A cursor made by another view (another sort, `q` or filters, or none) than the one asked.
    public static let otherView = CursorError(
        kind: .otherView, description: "the cursor belongs to another view: its sort, q or filters differ from this request's")
}
