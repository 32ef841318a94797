// The opaque text form of a cursor: base64url (no padding) of
// [version 1][order key length: 2 bytes][order key][row key length − 1: 1 byte][row key]
// [section key length: 2 bytes, 0 when absent][section key][FNV-1a 32 checksum: 4 bytes].

extension Cursor {
    /// The longest order key a cursor can carry, in bytes.
    public static let maxOrderKeyBytes = 1_024
    /// The longest cursor text `init(decoding:)` reads.
    public static let maxEncodedLength = 2_064
    static let version: UInt8 = 1

    /// The opaque, URL-safe text clients send back (`?after=`, `until=`).
    ///
    /// Keys longer than the cursor form allows (order keys over 1,024 bytes, row keys over
    /// 256) are a programmer error: the server never produces them.
    public var encoded: String {
        let order = Array(orderKey.rawValue.utf8)
        let row = Array(rowKey.utf8)
        let section = Array((sectionKey ?? "").utf8)
        precondition(
            order.count <= Self.maxOrderKeyBytes && (1...256).contains(row.count) && section.count <= 256,
            "cursor keys out of range")
        var bytes: [UInt8] = [Self.version, UInt8(order.count >> 8), UInt8(order.count & 0xFF)]
        bytes += order
        bytes.append(UInt8(row.count - 1))
        bytes += row
        bytes += [UInt8(section.count >> 8), UInt8(section.count & 0xFF)]
        bytes += section
        return sealedCursorText(bytes)
    }

    /// Reads a cursor from its text; anything but an unaltered `encoded` string is an error,
    /// and a view's cursor (`ViewCursor`) is `CursorError.otherView`.
    public init(decoding text: String) throws(CursorError) {
        // version, order key length, 2-byte order key, row key length, 1-byte row key,
        // section key length, checksum
        let bytes = try checkedCursorBytes(text, maxLength: Self.maxEncodedLength, minimum: 1 + 2 + 2 + 1 + 1 + 2 + 4)
        let body = bytes[..<(bytes.count - 4)]
        if bytes[0] == ViewCursor.version { throw .otherView }
        guard bytes[0] == Self.version else { throw .unsupportedVersion(bytes[0]) }
        let orderLength = Int(bytes[1]) << 8 | Int(bytes[2])
        let rowLengthIndex = 3 + orderLength
        guard orderLength <= Self.maxOrderKeyBytes, rowLengthIndex < body.count else { throw .malformed }
        let rowLength = Int(bytes[rowLengthIndex]) + 1
        let sectionLengthIndex = rowLengthIndex + 1 + rowLength
        guard sectionLengthIndex + 2 <= body.count else { throw .malformed }
        let sectionLength = Int(bytes[sectionLengthIndex]) << 8 | Int(bytes[sectionLengthIndex + 1])
        guard sectionLength <= 256, sectionLengthIndex + 2 + sectionLength == body.count else { throw .malformed }
        let orderKey = OrderKey(rawValue: String(decoding: bytes[3..<rowLengthIndex], as: UTF8.self))
        guard orderKey.isWellFormed,
            let rowKey = String(validating: bytes[(rowLengthIndex + 1)..<sectionLengthIndex], as: UTF8.self),
            let sectionKey = String(validating: bytes[(sectionLengthIndex + 2)..<body.count], as: UTF8.self)
        else { throw .malformed }
        self.init(orderKey: orderKey, rowKey: rowKey, sectionKey: sectionKey.isEmpty ? nil : sectionKey)
    }
}

/// Why a cursor's text was rejected. Two errors are equal when they are of the same kind.
public struct CursorError: Error, Sendable, Hashable, CustomStringConvertible {
    enum Kind: Hashable {
        case empty, tooLong, invalidCharacter, invalidLength, truncated, checksumMismatch,
            unsupportedVersion, malformed, otherView
    }
    let kind: Kind
    public let description: String

    public static let empty = CursorError(kind: .empty, description: "the cursor is empty")
    public static let tooLong = CursorError(
        kind: .tooLong, description: "the cursor is longer than \(Cursor.maxEncodedLength) characters")
    public static let invalidLength = CursorError(kind: .invalidLength, description: "the cursor has an impossible length")
    public static let truncated = CursorError(kind: .truncated, description: "the cursor is truncated")
    public static let checksumMismatch = CursorError(
        kind: .checksumMismatch, description: "the cursor's checksum does not match: it was truncated or altered")
    public static let malformed = CursorError(kind: .malformed, description: "the cursor's content is malformed")

    public static func invalidCharacter(at offset: Int) -> CursorError {
        CursorError(kind: .invalidCharacter, description: "the cursor has a character outside base64url at offset \(offset)")
    }

    public static func unsupportedVersion(_ version: UInt8) -> CursorError {
        CursorError(kind: .unsupportedVersion, description: "cursor version \(version) is not supported")
    }

    public static func == (lhs: CursorError, rhs: CursorError) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

// MARK: - Helpers

/// A cursor's text: `bytes` followed by their FNV-1a 32 checksum, as unpadded base64url.
func sealedCursorText(_ bytes: [UInt8]) -> String {
    let sum = fnv1a32(bytes)
    return base64URLEncoded(bytes + [UInt8(sum >> 24), UInt8((sum >> 16) & 0xFF), UInt8((sum >> 8) & 0xFF), UInt8(sum & 0xFF)])
}

/// The bytes of a cursor's text, checksum included, once it is known to be a cursor's: not empty,
/// at most `maxLength` characters, base64url of at least `minimum` bytes whose checksum holds.
func checkedCursorBytes(_ text: String, maxLength: Int, minimum: Int) throws(CursorError) -> [UInt8] {
    let characters = Array(text.utf8)
    guard !characters.isEmpty else { throw .empty }
    guard characters.count <= maxLength else { throw .tooLong }
    let bytes = try base64URLDecoded(characters)
    guard bytes.count >= minimum else { throw .truncated }
    let stored = bytes[(bytes.count - 4)...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    guard fnv1a32(bytes[..<(bytes.count - 4)]) == stored else { throw .checksumMismatch }
    return bytes
}

/// 32-bit FNV-1a: a short check against truncation and typing errors, not a signature.
func fnv1a32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
    var hash: UInt32 = 0x811C_9DC5
    for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
    return hash
}

private let base64URLAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

/// RFC 4648 §5 base64url without padding.
func base64URLEncoded(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count * 4 + 2) / 3)
    var index = 0
    while index + 3 <= bytes.count {
        let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
        for shift in [18, 12, 6, 0] { out.append(base64URLAlphabet[Int((n >> UInt32(shift)) & 63)]) }
        index += 3
    }
    let rest = bytes.count - index
    if rest == 1 {
        let n = UInt32(bytes[index]) << 16
        for shift in [18, 12] { out.append(base64URLAlphabet[Int((n >> UInt32(shift)) & 63)]) }
    } else if rest == 2 {
        let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
        for shift in [18, 12, 6] { out.append(base64URLAlphabet[Int((n >> UInt32(shift)) & 63)]) }
    }
    return String(decoding: out, as: UTF8.self)
}

/// Strict base64url decoding: no padding, no other characters, unused trailing bits zero.
func base64URLDecoded(_ characters: [UInt8]) throws(CursorError) -> [UInt8] {
    var values: [UInt8] = []
    values.reserveCapacity(characters.count)
    for (offset, character) in characters.enumerated() {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(character - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(character - UInt8(ascii: "a") + 26)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(character - UInt8(ascii: "0") + 52)
        case UInt8(ascii: "-"): values.append(62)
        case UInt8(ascii: "_"): values.append(63)
        default: throw .invalidCharacter(at: offset)
        }
    }
    guard characters.count % 4 != 1 else { throw .invalidLength }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(values.count * 3 / 4)
    var index = 0
    while index + 4 <= values.count {
        let n =
            UInt32(values[index]) << 18 | UInt32(values[index + 1]) << 12
            | UInt32(values[index + 2]) << 6 | UInt32(values[index + 3])
        bytes += [UInt8(n >> 16), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)]
        index += 4
    }
    let rest = values.count - index
    if rest == 2 {
        guard values[index + 1] & 0x0F == 0 else { throw .malformed }
        bytes.append(values[index] << 2 | values[index + 1] >> 4)
    } else if rest == 3 {
        guard values[index + 2] & 0x03 == 0 else { throw .malformed }
        let n = UInt32(values[index]) << 12 | UInt32(values[index + 1]) << 6 | UInt32(values[index + 2])
        bytes += [UInt8(n >> 10), UInt8((n >> 2) & 0xFF)]
    }
    return bytes
}
