// Cells, keys, strings and URLs for `DocumentReader`, and its error helpers.

extension DocumentReader {
    // MARK: Cells

    /// The cells in column order (the canonical form; a renderer then finds each at its column's
    /// position); a repeated member's last value wins, and `null` members are left out.
    func cells(_ value: JSONValue) throws(Failure) -> RowCells {
        guard case .object(let object) = value else { throw typeMismatch("an object of cells", value) }
        // Cells in column order, each once (the canonical form, and what clients send): packed
        // as they are read. Otherwise they are gathered, ordered, then packed.
        let scratch = self.scratch
        scratch.encoder.removeAll()
        var lastColumn = -1
        for (name, member) in object {
            guard let index = column(named: name, after: lastColumn) else {
                throw Failure(pointer: JSONPointer(tokens: [name]), message: "no column has the key \(quotedKey(name))")
            }
            if member.isNull { continue }
            guard index > lastColumn else { return try gatheredCells(object) }
            // Text and number cells, the common ones, are packed straight from the JSON value.
            switch (columnKinds[index], member) {
            case (.text, .string(let string)) where string.utf8.count <= ListDocument.maxStringBytes:
                scratch.encoder.append(key: name, text: string)
            case (.number, .number(let number)) where number.isFinite:
                scratch.encoder.append(key: name, number: number)
            default:
                let cellValue = try within(name) { () throws(Failure) in try cell(member, column: index) }
                scratch.encoder.append(key: name, value: cellValue)
            }
            lastColumn = index
        }
        return RowCells(scratch.encoder)
    }

    /// The index of the column named `name`: the columns after `lastColumn` are tried first,
    /// by their bytes (cells come in column order: no hashing), then all by a hash of their bytes.
    @inline(__always)
    func column(named name: String, after lastColumn: Int) -> Int? {
        var index = lastColumn + 1
        while index < columnKeys.count {
            if utf8Equal(columnKeys[index], name) { return index }
            index += 1
        }
        return columnIndex[ByteKey(name)]
    }

    /// `cells` for members out of column order or repeated (a repeated member's last value wins).
    func gatheredCells(_ object: JSONObject) throws(Failure) -> RowCells {
        let pairs = scratch
        pairs.cells.removeAll(keepingCapacity: true)
        for (name, member) in object {
            guard let index = columnIndex[ByteKey(name)] else {
                throw Failure(pointer: JSONPointer(tokens: [name]), message: "no column has the key \(quotedKey(name))")
            }
            if member.isNull { continue }
            let cellValue = try within(name) { () throws(Failure) in try cell(member, column: index) }
            if let present = pairs.cells.firstIndex(where: { utf8Equal($0.key, name) }) {
                pairs.cells[present].value = cellValue
            } else {
                pairs.cells.append((name, cellValue, index))
            }
        }
        pairs.cells.sort { $0.column < $1.column }
        pairs.encoder.removeAll()
        for cell in pairs.cells { pairs.encoder.append(key: cell.key, value: cell.value) }
        return RowCells(pairs.encoder)
    }

    /// The value of a cell of column `columnIndex`.
    func cell(_ value: JSONValue, column columnIndex: Int) throws(Failure) -> CellValue {
        let kind = columnKinds[columnIndex]
        var forColumn: String { "for column \(quotedKey(columnKeys[columnIndex])) (kind \(kind.rawValue))" }
        switch (kind, value) {
        case (.text, .string(let string)):
            return .text(try text(value, string))
        case (.number, .number(let number)):
            guard number.isFinite else { throw Failure(pointer: .root, message: "must be a finite number \(forColumn)") }
            return .number(number)
        case (.link, .object(let object)):
            var text: String?
            var href: String?
            for (name, member) in object {
                switch name {
                case "text": text = try within(name) { () throws(Failure) in try self.text(member) }
                case "href": href = try within(name) { () throws(Failure) in try url(member) }
                default: throw unknownMember(name, of: "a link", allowed: "text, href")
                }
            }
            guard let text else { throw missing("text", of: "a link") }
            guard let href else { throw missing("href", of: "a link") }
            return .link(text: text, href: href)
        case (.image, .object(let object)):
            var src: String?
            var alt = ""
            var width: Double?
            var height: Double?
            for (name, member) in object {
                switch name {
                case "src": src = try within(name) { () throws(Failure) in try url(member) }
                case "alt":
                    if !member.isNull { alt = try within(name) { () throws(Failure) in try text(member) } }
                case "width":
                    if !member.isNull { width = try within(name) { () throws(Failure) in try size(member) } }
                case "height":
                    if !member.isNull { height = try within(name) { () throws(Failure) in try size(member) } }
                default: throw unknownMember(name, of: "an image", allowed: "src, alt, width, height")
                }
            }
            guard let src else { throw missing("src", of: "an image") }
            return .image(src: src, alt: alt, width: width, height: height)
        case (.text, _):
            throw Failure(pointer: .root, message: "must be a string \(forColumn), got \(value.typeName)")
        case (.number, _):
            throw Failure(pointer: .root, message: "must be a number \(forColumn), got \(value.typeName)")
        case (.link, _):
            throw Failure(
                pointer: .root,
                message: "must be an object {\"text\", \"href\"} \(forColumn), got \(value.typeName)")
        case (.image, _):
            throw Failure(
                pointer: .root,
                message: "must be an object {\"src\", \"alt\"} \(forColumn), got \(value.typeName)")
        }
    }

    func size(_ value: JSONValue) throws(Failure) -> Double {
        guard case .number(let number) = value else { throw typeMismatch("a number", value) }
        guard number.isFinite, number > 0 else {
            throw Failure(pointer: .root, message: "must be a finite number greater than 0, got \(format(number))")
        }
        return number
    }

    // MARK: Primitives

    func key(_ value: JSONValue) throws(Failure) -> String {
        guard case .string(let key) = value else { throw typeMismatch("a string", value) }
        let bytes = key.utf8.count
        guard bytes > 0 else { throw Failure(pointer: .root, message: "must not be empty") }
        guard bytes <= ListDocument.maxKeyBytes else {
            throw Failure(pointer: .root, message: "must be at most \(ListDocument.maxKeyBytes) UTF-8 bytes, got \(bytes)")
        }
        return key
    }

    func text(_ value: JSONValue) throws(Failure) -> String {
        guard case .string(let string) = value else { throw typeMismatch("a string", value) }
        return try text(value, string)
    }

    func text(_ value: JSONValue, _ string: String) throws(Failure) -> String {
        let bytes = string.utf8.count
        guard bytes <= ListDocument.maxStringBytes else {
            throw Failure(
                pointer: .root,
                message: "must be at most \(ListDocument.maxStringBytes) UTF-8 bytes, got \(bytes)")
        }
        return string
    }

    func optionalText(_ value: JSONValue) throws(Failure) -> String? {
        if value.isNull { return nil }
        guard case .string = value else { throw typeMismatch("a string or null", value) }
        return try text(value)
    }

    func bool(_ value: JSONValue) throws(Failure) -> Bool {
        guard case .bool(let bool) = value else { throw typeMismatch("a boolean", value) }
        return bool
    }

    func choice<T: RawRepresentable & CaseIterable>(_ value: JSONValue, _: T.Type) throws(Failure) -> T
    where T.RawValue == String {
        if case .string(let string) = value, let result = T(rawValue: string) { return result }
        let names = T.allCases.map { quotedKey($0.rawValue) }.joined(separator: ", ")
        let got = value.stringValue.map(quotedKey) ?? value.typeName
        throw Failure(pointer: .root, message: "must be one of \(names), got \(got)")
    }

    /// A URL for `href` or `src`: bounded, free of control characters, relative or of an allowed scheme.
    func url(_ value: JSONValue) throws(Failure) -> String {
        guard case .string(let url) = value else { throw typeMismatch("a URL string", value) }
        let bytes = url.utf8
        guard bytes.count <= ListDocument.maxURLBytes else {
            throw Failure(
                pointer: .root,
                message: "must be at most \(ListDocument.maxURLBytes) bytes, got \(bytes.count)")
        }
        for (offset, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x7F {
            throw Failure(
                pointer: .root,
                message: "must not contain control characters, found U+\(hex4(UInt32(byte))) at byte \(offset)")
        }
        if let scheme = urlScheme(bytes), !["http", "https", "mailto"].contains(scheme.lowercased()) {
            throw Failure(
                pointer: .root,
                message:
                    "the URL scheme \(quotedKey(scheme)) is not allowed; use http, https, mailto or a relative URL")
        }
        return url
    }

    /// The scheme of a URL after leading spaces (`[A-Za-z][A-Za-z0-9+.-]*:`), or `nil` if relative.
    func urlScheme(_ bytes: String.UTF8View) -> String? {
        var scheme: [UInt8] = []
        for byte in bytes.drop(while: { $0 == 0x20 }) {
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            if byte == UInt8(ascii: ":") { return scheme.isEmpty ? nil : String(decoding: scheme, as: UTF8.self) }
            if isLetter || (!scheme.isEmpty && (byte >= 0x30 && byte <= 0x39 || byte == 0x2B || byte == 0x2D || byte == 0x2E)) {
                scheme.append(byte)
            } else {
                return nil
            }
        }
        return nil
    }

    // MARK: Errors

    /// Runs `body`, prefixing the pointer of any error it throws with `token`.
    @inline(__always)
    func within<T>(_ token: String, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        do { return try body() } catch { throw error.prefixed([token]) }
    }

    @inline(__always)
    func within<T>(_ index: Int, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        do { return try body() } catch { throw error.prefixed([String(index)]) }
    }

    @inline(__always)
    func within<T>(_ token: String, _ index: Int, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        do { return try body() } catch { throw error.prefixed([token, String(index)]) }
    }

    func typeMismatch(_ expected: String, _ value: JSONValue) -> Failure {
        Failure(pointer: .root, message: "must be \(expected), got \(value.typeName)")
    }

    func missing(_ name: String, of what: String) -> Failure {
        Failure(pointer: .root, message: "\(what) must have the member \(quotedKey(name))")
    }

    func unknownMember(_ name: String, of what: String, allowed: String) -> Failure {
        Failure(pointer: JSONPointer(tokens: [name]), message: "unknown member; \(what) has only \(allowed)")
    }

    func format(_ number: Double) -> String {
        if number.isFinite, abs(number) < 1e15, Double(Int(number)) == number { return String(Int(number)) }
        return String(number)
    }
}

extension ListDocumentError {
    /// This error with `tokens` put in front of its pointer.
    func prefixed(_ tokens: [String]) -> ListDocumentError {
        ListDocumentError(pointer: JSONPointer(tokens: tokens + pointer.tokens), message: message)
    }
}
