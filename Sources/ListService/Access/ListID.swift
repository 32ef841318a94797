/// List ids: `[A-Za-z0-9][A-Za-z0-9._-]{0,63}` (API.md section 2).
package enum ListID {
    /// The rule, as error answers state it.
    package static let rule = "A list id is 1 to 64 characters of A-Z, a-z, 0-9, '.', '_' and '-', starting with a letter or digit."

    /// Whether `raw` is a valid list id.
    package static func isValid(_ raw: String) -> Bool {
        let bytes = raw.utf8  // read in place: no copy per request
        guard (1...64).contains(bytes.count), let first = bytes.first, isAlphanumeric(first) else { return false }
        return bytes.dropFirst().allSatisfy(isIDByte)
    }

    /// A byte allowed after the first one: a letter, a digit, '.', '_' or '-'.
    package static func isIDByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
