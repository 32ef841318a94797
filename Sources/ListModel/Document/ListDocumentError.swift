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
    public var pointerText: String { escapedPointer(pointer.tokens) }

    public var description: String {
        pointer.tokens.isEmpty ? message : "\(pointerText): \(message)"
    }
}

/// RFC 6901 text of these tokens: `/` before each, `~` as `~0`, `/` as `~1`.
func escapedPointer(_ tokens: [String]) -> String {
    var text = ""
    for token in tokens {
        text += "/"
        if token.contains(where: { $0 == "~" || $0 == "/" }) {
            text += token.replacingAll("~", with: "~0").replacingAll("/", with: "~1")
        } else {
            text += token
        }
    }
    return text
}

/// A key or value quoted for an error message: JSON string syntax, cut after 64 characters.
func quoted(_ text: String) -> String {
    var out = "\""
    for (index, scalar) in text.unicodeScalars.enumerated() {
        if index == 64 { out += "…"; break }
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

extension String {
    /// This string with every occurrence of `target` replaced (no Foundation in ListModel).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self {
            if character == target { out += replacement } else { out.append(character) }
        }
        return out
    }
}
