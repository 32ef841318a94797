extension Row {
    /// The canonical JSON text of this row, `json(columns:).serialized()`, written straight from
    /// the packed cells (no JSON tree of the row is built) when every cell names one of
    /// `columns`; otherwise through `json(columns:)`. The same bytes either way. What the store
    /// keeps of every row a write stores: a million of them for a PUT of a million rows.
    public func canonicalJSONBytes(columns: [Column]) -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        guard writeCanonical(columns: columns, into: &writer) else { return json(columns: columns).serialized() }
        return writer.bytes
    }

    /// Writes `{"key", "cells", "href"?, "style"}`; false (with `writer` to be dropped) when a
    /// cell names no column, whose place `json(columns:)` decides by sorting keys.
    private func writeCanonical(columns: [Column], into writer: inout JSONWriter) -> Bool {
        writer.write("{\"key\":")
        writer.writeString(key)
        writer.write(",\"cells\":{")
        var written = 0
        cells.withPackedCells { packed in
            for (position, column) in columns.enumerated() {
                var key = column.key
                guard let index = key.withUTF8({ packed.index(ofKey: $0, hint: position) }) else { continue }
                if written > 0 { writer.write(UInt8(ascii: ",")) }
                writer.writeString(column.key)
                writer.write(UInt8(ascii: ":"))
                writer.writeCellValue(packed[index].value)
                written += 1
            }
        }
        guard written == cells.count else { return false }
        writer.write(UInt8(ascii: "}"))
        if let href {
            writer.write(",\"href\":")
            writer.writeString(href)
        }
        writer.write(",\"style\":")
        writer.writeString(style.rawValue)
        writer.write(UInt8(ascii: "}"))
        return true
    }
}

extension JSONWriter {
    /// A packed cell's value as `PackedValue.json` serializes: a string, a number,
    /// `{"text", "href"}` or `{"src", "alt", "width"?, "height"?}`.
    mutating func writeCellValue(_ value: PackedValue) {
        switch value {
        case .text(let text):
            writeString(utf8: text)
        case .number(let number):
            writeNumber(number)
        case .link(let text, let href):
            write("{\"text\":")
            writeString(utf8: text)
            write(",\"href\":")
            writeString(utf8: href)
            write(UInt8(ascii: "}"))
        case .image(let src, let alt, let width, let height):
            write("{\"src\":")
            writeString(utf8: src)
            write(",\"alt\":")
            writeString(utf8: alt)
            if let width {
                write(",\"width\":")
                writeNumber(width)
            }
            if let height {
                write(",\"height\":")
                writeNumber(height)
            }
            write(UInt8(ascii: "}"))
        }
    }
}
