/// Why a JSON Pointer could not be parsed or resolved; the message names the pointer.
public struct JSONPointerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, for a human, e.g. `"/a/b": member "b" not found`.
    public var message: String

    public init(message: String) { self.message = message }

    public var description: String { message }
}

extension JSONPointer: CustomStringConvertible, ExpressibleByStringLiteral {
    /// Parses the RFC 6901 string form: `""` for the whole document, else `/`-separated tokens
    /// with `~0` for `~` and `~1` for `/`.
    ///
    /// Throws for a non-empty pointer that does not start with `/`, and for a `~` not followed
    /// by `0` or `1`.
    public init(parsing string: String) throws(JSONPointerError) {
        guard !string.isEmpty else {
            self.init(tokens: [])
            return
        }
        let bytes = Array(string.utf8)
        guard bytes[0] == UInt8(ascii: "/") else {
            throw JSONPointerError(message: "\(quoted(string)): a JSON Pointer must be empty or start with \"/\"")
        }
        var tokens: [String] = []
        var current: [UInt8] = []
        var i = 1
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "/") {
                tokens.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            } else if byte == UInt8(ascii: "~") {
                let next = i + 1 < bytes.count ? bytes[i + 1] : 0
                guard next == UInt8(ascii: "0") || next == UInt8(ascii: "1") else {
                    throw JSONPointerError(message: "\(quoted(string)): \"~\" must be followed by \"0\" or \"1\"")
                }
                current.append(next == UInt8(ascii: "0") ? UInt8(ascii: "~") : UInt8(ascii: "/"))
                i += 1
            } else {
                current.append(byte)
            }
            i += 1
        }
        tokens.append(String(decoding: current, as: UTF8.self))
        self.init(tokens: tokens)
    }

    /// A pointer from a literal; the literal must be a valid pointer (a programmer error otherwise).
    public init(stringLiteral value: String) {
        do { try self.init(parsing: value) } catch { preconditionFailure(error.message) }
    }

    /// The RFC 6901 string form, tokens escaped (`~` as `~0`, `/` as `~1`).
    public var description: String {
        var result = ""
        for token in tokens {
            result += "/"
            if token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
                result += token.replacing("~", with: "~0").replacing("/", with: "~1")
            } else {
                result += token
            }
        }
        return result
    }

    /// This pointer extended by one (unescaped) token.
    public func appending(_ token: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [token])
    }

    /// This pointer extended by an array index.
    public func appending(index: Int) -> JSONPointer {
        appending(String(index))
    }

    /// The pointer to the containing value; `nil` for the root.
    public var parent: JSONPointer? {
        tokens.isEmpty ? nil : JSONPointer(tokens: Array(tokens.dropLast()))
    }

    /// The last reference token; `nil` for the root.
    public var lastToken: String? { tokens.last }

    /// Whether this pointer is the root or a proper or improper prefix of `other`
    /// (`/a` is a prefix of `/a` and `/a/b`, not of `/ab`).
    public func isPrefix(of other: JSONPointer) -> Bool {
        tokens.count <= other.tokens.count && zip(tokens, other.tokens).allSatisfy { utf8Equal($0, $1) }
    }
}
