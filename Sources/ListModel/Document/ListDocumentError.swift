/// Why a JSON value is not a valid list document: where (a JSON Pointer) and what.
///
/// `description` reads `/sections/0/rows/3/cells/pop: must be a number for column "pop"
/// (kind number), got string`; for the document itself it is just the message.
public struct ListDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The offending member; `JSONPointer.root` for the document itself.
    public var pointer: JSONPointer
    /// What is wrong, in a sentence without the pointer.
    public var message: String

    public init(pointer: JSONPointer, message: String) {
        self.pointer = pointer
        self.message = message
    }

    /// The pointer in its RFC 6901 escaped form (`~0`, `~1`), e.g. `/sections/0/key`.
    public var pointerText: String { pointer.description }

    public var description: String {
        pointer.tokens.isEmpty ? message : "\(pointerText): \(message)"
    }
}

/// The message for a row key seen before, at `first` (every path that checks keys says it alike).
func duplicateRowKeyMessage(_ key: String, firstAt first: (section: Int, row: Int)) -> String {
    "duplicate row key \(quotedKey(key)), also at /sections/\(first.section)/rows/\(first.row)/key"
}

/// The message for a section key seen before, at section `first`.
func duplicateSectionKeyMessage(_ key: String, firstAt first: Int) -> String {
    "duplicate section key \(quotedKey(key)), also at /sections/\(first)/key"
}

/// A key or value quoted for an error message: JSON string syntax, cut after 64 characters.
func quotedKey(_ text: String) -> String {
    var out = "\""
    for (index, scalar) in text.unicodeScalars.enumerated() {
        if index == 64 {
            out += "…"
            break
        }
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u" + hex4(scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

/// Four upper-case hex digits.
func hex4(_ value: UInt32) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([12, 8, 4, 0].map { digits[Int((value >> UInt32($0)) & 0xF)] })
}
