import CLibPQ

/// A statement parameter, sent in PostgreSQL's binary format (no quoting or escaping: bytes go
/// as they are, whatever they hold).
enum PGValue {
    case text(String)
    case bytes([UInt8])
    case int(Int)
    case textArray([String])
    case bytesArray([[UInt8]])

    /// The parameter's type (`pg_type.oid`): text, bytea, int8, text[], bytea[].
    var type: Oid {
        switch self {
        case .text: 25
        case .bytes: 17
        case .int: 20
        case .textArray: 1009
        case .bytesArray: 1001
        }
    }

    /// Appends the binary form: big-endian integers; for arrays PostgreSQL's `array_send`
    /// layout (dimensions, no nulls, element type, then each element's length and bytes).
    func encode(into buffer: inout [UInt8]) {
        switch self {
        case .text(let text): buffer.append(contentsOf: text.utf8)
        case .bytes(let bytes): buffer.append(contentsOf: bytes)
        case .int(let value): buffer.appendBigEndian(UInt64(bitPattern: Int64(value)))
        case .textArray(let texts): Self.encodeArray(texts.map { Array($0.utf8) }, elementType: 25, into: &buffer)
        case .bytesArray(let elements): Self.encodeArray(elements, elementType: 17, into: &buffer)
        }
    }

    private static func encodeArray(_ elements: [[UInt8]], elementType: Oid, into buffer: inout [UInt8]) {
        buffer.appendBigEndian(UInt32(elements.isEmpty ? 0 : 1))  // dimensions
        buffer.appendBigEndian(UInt32(0))  // no nulls
        buffer.appendBigEndian(UInt32(elementType))
        if elements.isEmpty { return }
        buffer.appendBigEndian(UInt32(elements.count))
        buffer.appendBigEndian(UInt32(1))  // lower bound
        for element in elements {
            buffer.appendBigEndian(UInt32(element.count))
            buffer.append(contentsOf: element)
        }
    }
}

extension [UInt8] {
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        for shift in stride(from: T.bitWidth - 8, through: 0, by: -8) {
            append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }
}
