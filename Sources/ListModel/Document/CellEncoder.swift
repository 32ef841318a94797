/// Encodes cells for a `CellStorage`; reusable (`removeAll`) to encode row after row.
struct CellEncoder {
    var offsets: [Int] = []
    var bytes: [UInt8] = []

    mutating func removeAll() {
        offsets.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func append(key: String, value: CellValue) {
        offsets.append(bytes.count)
        appendString(key)
        switch value {
        case .text(let text):
            bytes.append(CellStorage.Tag.text)
            appendString(text)
        case .number(let number):
            bytes.append(CellStorage.Tag.number)
            appendDouble(number)
        case .link(let text, let href):
            bytes.append(CellStorage.Tag.link)
            appendString(text)
            appendString(href)
        case .image(let src, let alt, let width, let height):
            bytes.append(
                CellStorage.Tag.image | (width != nil ? CellStorage.Tag.hasWidth : 0)
                    | (height != nil ? CellStorage.Tag.hasHeight : 0))
            appendString(src)
            appendString(alt)
            if let width { appendDouble(width) }
            if let height { appendDouble(height) }
        }
    }

    /// `append(key:value:)` for a text cell.
    mutating func append(key: String, text: String) {
        offsets.append(bytes.count)
        appendString(key)
        bytes.append(CellStorage.Tag.text)
        appendString(text)
    }

    /// `append(key:value:)` for a number cell.
    mutating func append(key: String, number: Double) {
        offsets.append(bytes.count)
        appendString(key)
        bytes.append(CellStorage.Tag.number)
        appendDouble(number)
    }

    mutating func appendString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            var length = utf8.count
            while length >= 0x80 {
                bytes.append(UInt8(length & 0x7F) | 0x80)
                length >>= 7
            }
            bytes.append(UInt8(length))
            bytes.append(contentsOf: utf8)
        }
    }

    private mutating func appendDouble(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
