#if canImport(FoundationEssentials)
import struct FoundationEssentials.Data
#else
import struct Foundation.Data
#endif

extension JSONValue {
    /// Parses one JSON text (RFC 8259) that fills all of `bytes`.
    ///
    /// Strict: rejects invalid UTF-8 (overlongs, encoded surrogates), lone surrogate `\u`
    /// escapes, control characters in strings, leading zeros, numbers too large for a `Double`,
    /// duplicate member names, nesting deeper than `maxDepth` arrays and objects, and anything
    /// but whitespace after the value. Errors name the byte offset.
    public init(parsing bytes: [UInt8], maxDepth: Int = 64) throws(JSONParseError) {
        self = try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            try JSONParser.parse(buffer, maxDepth: maxDepth)
        }
    }

    /// Parses one JSON text held in `bytes` (see ``init(parsing:maxDepth:)-([UInt8],_)``).
    public init(parsing bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = 64) throws(JSONParseError) {
        self = try JSONParser.parse(bytes, maxDepth: maxDepth)
    }

    /// Parses one JSON text held in `data` (see ``init(parsing:maxDepth:)-([UInt8],_)``).
    public init(parsing data: Data, maxDepth: Int = 64) throws(JSONParseError) {
        let result: Result<JSONValue, JSONParseError> = data.withUnsafeBytes { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            return Result { () throws(JSONParseError) in try JSONParser.parse(buffer, maxDepth: maxDepth) }
        }
        self = try result.get()
    }

    /// Parses the UTF-8 of `text` (see ``init(parsing:maxDepth:)-([UInt8],_)``).
    public init(parsing text: String, maxDepth: Int = 64) throws(JSONParseError) {
        try self.init(parsing: Array(text.utf8), maxDepth: maxDepth)
    }
}
