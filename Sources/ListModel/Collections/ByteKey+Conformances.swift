// Cursors and pointers hold keys: they are equal, and hash, by their keys' bytes (`ByteKey`),
// so two windows or paths that differ only in a key's encoding (NFC or NFD) stay apart.

extension Cursor {
    public static func == (lhs: Cursor, rhs: Cursor) -> Bool {
        lhs.orderKey == rhs.orderKey && utf8Equal(lhs.rowKey, rhs.rowKey) && optionalUTF8Equal(lhs.sectionKey, rhs.sectionKey)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(orderKey)
        hasher.combine(ByteKey(rowKey))
        hasher.combine(sectionKey.map { ByteKey($0) })
    }
}

extension ViewCursor {
    public static func == (lhs: ViewCursor, rhs: ViewCursor) -> Bool {
        lhs.fingerprint == rhs.fingerprint && lhs.sortValue == rhs.sortValue
            && lhs.sortValueTruncated == rhs.sortValueTruncated && lhs.orderKey == rhs.orderKey
            && utf8Equal(lhs.rowKey, rhs.rowKey) && utf8Equal(lhs.sectionKey, rhs.sectionKey)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fingerprint)
        hasher.combine(sortValue)
        hasher.combine(orderKey)
        hasher.combine(ByteKey(rowKey))
        hasher.combine(ByteKey(sectionKey))
    }
}

extension JSONPointer {
    public static func == (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
        lhs.tokens.count == rhs.tokens.count && zip(lhs.tokens, rhs.tokens).allSatisfy { utf8Equal($0, $1) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(tokens.count)
        for token in tokens { hasher.combine(ByteKey(token)) }
    }
}
