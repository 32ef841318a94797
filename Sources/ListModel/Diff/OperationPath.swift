/// A JSON Pointer the diff writes, with the size of its serialized form (`"/sections/0"`
/// is 13 bytes), counted as it is built rather than by scanning it again.
struct OperationPath {
    var pointer: JSONPointer
    /// The size of the pointer as a JSON string, quotes included.
    var size: Int

    /// `/sections/INDEX`.
    static func section(_ section: Int) -> OperationPath {
        OperationPath(
            pointer: JSONPointer(tokens: ["sections", String(section)]),
            size: 2 + "/sections/".utf8.count + digits(section))
    }

    /// `/sections/SECTION/rows/ROW`.
    static func row(_ section: Int, _ row: Int) -> OperationPath {
        OperationPath(
            pointer: JSONPointer(tokens: ["sections", String(section), "rows", String(row)]),
            size: 2 + "/sections//rows/".utf8.count + digits(section) + digits(row))
    }

    /// `/NAME`, a member of the list.
    static func member(_ name: String) -> OperationPath { OperationPath(pointer: .root, size: 2).appending(name) }

    /// This path with more tokens, escaped (`~0`, `~1`) as they are counted.
    func appending(_ tokens: String...) -> OperationPath {
        var size = self.size
        for token in tokens {
            size += CanonicalSize.string(token) - 1  // a slash instead of two quotes
            for byte in token.utf8 where byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") { size += 1 }
        }
        return OperationPath(pointer: JSONPointer(tokens: pointer.tokens + tokens), size: size)
    }

    /// The number of decimal digits of a non-negative integer.
    private static func digits(_ value: Int) -> Int {
        var value = value
        var count = 1
        while value >= 10 {
            value /= 10
            count += 1
        }
        return count
    }
}
