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

    /// `/sections/SECTION/rows/ROW/cells/KEY`.
    static func cell(_ section: Int, _ row: Int, _ key: String) -> OperationPath {
        OperationPath(
            pointer: JSONPointer(tokens: ["sections", String(section), "rows", String(row), "cells", key]),
            size: 2 + "/sections//rows//cells".utf8.count + digits(section) + digits(row) + tokenSize(key))
    }

    /// `/NAME`, a member of the list.
    static func member(_ name: String) -> OperationPath { OperationPath(pointer: .root, size: 2).appending(name) }

    /// This path with one more token, escaped (`~0`, `~1`) as it is counted.
    func appending(_ token: String) -> OperationPath {
        var tokens = pointer.tokens
        tokens.append(token)
        return OperationPath(pointer: JSONPointer(tokens: tokens), size: size + Self.tokenSize(token))
    }

    /// This path with two more tokens.
    func appending(_ first: String, _ second: String) -> OperationPath {
        var tokens: [String] = []
        tokens.reserveCapacity(pointer.tokens.count + 2)
        tokens.append(contentsOf: pointer.tokens)
        tokens.append(first)
        tokens.append(second)
        return OperationPath(pointer: JSONPointer(tokens: tokens), size: size + Self.tokenSize(first) + Self.tokenSize(second))
    }

    /// The bytes `/TOKEN` adds to the serialized pointer.
    private static func tokenSize(_ token: String) -> Int {
        var size = CanonicalSize.string(token) - 1  // a slash instead of two quotes
        for byte in token.utf8 where byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") { size += 1 }
        return size
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
