/// Whether two strings hold the same UTF-8 bytes.
///
/// JSON compares member names and strings code unit by code unit (RFC 8259 section 8.3), while
/// Swift's `==` treats canonically equivalent strings ("é" and "e\u{301}") as equal.
@inline(__always)
func utf8Equal(_ a: String, _ b: String) -> Bool {
    let a = a.utf8, b = b.utf8
    guard a.count == b.count else { return false }
    let fast = a.withContiguousStorageIfAvailable { pa in
        b.withContiguousStorageIfAvailable { pb in pa.elementsEqual(pb) }
    }
    if let fast, let result = fast { return result }
    return a.elementsEqual(b)
}
