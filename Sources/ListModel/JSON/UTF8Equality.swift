/// Whether two strings hold the same UTF-8 bytes.
///
/// JSON compares member names and strings code unit by code unit (RFC 8259 section 8.3), while
/// Swift's `==` treats canonically equivalent strings ("é" and "e\u{301}") as equal.
@inline(__always)
public func utf8Equal(_ a: String, _ b: String) -> Bool {
    // The same representation is the same bytes: a short string's bits are its bytes, a long
    // one's are its count and storage. This settles most lookups of literal names at once.
    if unsafeBitCast(a, to: (UInt64, UInt64).self) == unsafeBitCast(b, to: (UInt64, UInt64).self) { return true }
    let count = a.utf8.count
    guard count == b.utf8.count else { return false }
    if count <= 15 {
        // Small strings live in registers, where `==` is a cheap word compare for ASCII. Equal
        // bytes imply canonical equivalence, so `==` failing settles it; success needs the
        // byte check below only for the rare non-ASCII case.
        guard a == b else { return false }
    }
    return utf8BytesEqual(a, b)
}

@inline(never)
private func utf8BytesEqual(_ a: String, _ b: String) -> Bool {
    let a = a.utf8, b = b.utf8
    let fast = a.withContiguousStorageIfAvailable { pa in
        // Word by word (`sameBytes`): `elementsEqual` goes byte by byte. Counts are equal.
        b.withContiguousStorageIfAvailable { pb in
            guard let left = pa.baseAddress, let right = pb.baseAddress else { return true }
            return sameBytes(left, right, count: pa.count)
        }
    }
    if let fast, let result = fast { return result }
    return a.elementsEqual(b)
}
