/// The change log's column of order keys: for each row, the UTF-8 lengths of its row key and order
/// key as 32-bit little-endian integers, then their bytes. Shared by both backends.
extension StoredOrderKey {
    static func encode(_ keys: [StoredOrderKey]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(keys.reduce(0) { $0 + 8 + $1.rowKey.utf8.count + $1.orderKey.utf8.count })
        for key in keys {
            for text in [key.rowKey, key.orderKey] {
                let count = UInt32(text.utf8.count)
                for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: count >> shift)) }
                bytes.append(contentsOf: text.utf8)
            }
        }
        return bytes
    }

    /// The keys `encode` wrote; throws on bytes it did not write.
    static func decode(_ bytes: [UInt8]) throws -> [StoredOrderKey] {
        var keys: [StoredOrderKey] = []
        var offset = 0
        func text() throws -> String {
            guard bytes.count - offset >= 4 else { throw StoreError(.failed, "change log: truncated order keys") }
            var count = 0
            for shift in 0..<4 { count |= Int(bytes[offset + shift]) << (8 * shift) }
            offset += 4
            guard bytes.count - offset >= count else { throw StoreError(.failed, "change log: truncated order keys") }
            let value = String(decoding: bytes[offset..<offset + count], as: UTF8.self)
            offset += count
            return value
        }
        while offset < bytes.count {
            keys.append(StoredOrderKey(rowKey: try text(), orderKey: try text()))
        }
        return keys
    }
}
