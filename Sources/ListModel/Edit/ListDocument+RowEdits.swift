/// Where `insertRows` puts new rows in a section.
public enum RowInsertPosition: Sendable, Equatable {
    /// After the section's last row.
    case end
    /// Just before the row with this key.
    case before(String)
    /// Just after the row with this key.
    case after(String)
}

/// Why a keyed row edit cannot be made; the document is left unchanged.
public struct ListEditError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The named section or row does not exist (HTTP 404).
        case notFound
        /// The edit would make an invalid list, e.g. a duplicate row key (HTTP 422).
        case invalid
    }

    public let kind: Kind
    public let message: String
    public var description: String { message }

    static func notFound(_ message: String) -> ListEditError { ListEditError(kind: .notFound, message: message) }
    static func invalid(_ message: String) -> ListEditError { ListEditError(kind: .invalid, message: message) }
}

extension ListDocument {
    /// The section index and row index of the row with this key, if any.
    public func location(ofRow key: String) -> (section: Int, row: Int)? {
        for (sectionIndex, section) in sections.enumerated() {
            if let rowIndex = section.rows.firstIndex(where: { utf8Equal($0.key, key) }) { return (sectionIndex, rowIndex) }
        }
        return nil
    }

    /// Inserts rows into the section with key `sectionKey` (TableViewLiaison's `append(rows:)`).
    ///
    /// The rows' keys must be new to the list and distinct from each other; the anchor row of
    /// `.before`/`.after` must be in that section.
    public mutating func insertRows(_ newRows: [Row], inSection sectionKey: String, at position: RowInsertPosition = .end)
        throws(ListEditError)
    {
        guard let sectionIndex = sections.firstIndex(where: { utf8Equal($0.key, sectionKey) }) else {
            throw .notFound("There is no section with key \(quotedKey(sectionKey)).")
        }
        var seen = Set<ByteKey>()
        for row in newRows {
            guard seen.insert(ByteKey(row.key)).inserted else { throw .invalid("row key \"\(row.key)\" appears twice in the request") }
            if let existing = location(ofRow: row.key) {
                throw .invalid("row key \"\(row.key)\" is already used in section \"\(sections[existing.section].key)\"")
            }
        }
        let rows = sections[sectionIndex].rows
        let index: Int
        switch position {
        case .end:
            index = rows.count
        case .before(let anchor), .after(let anchor):
            guard let anchorIndex = rows.firstIndex(where: { utf8Equal($0.key, anchor) }) else {
                throw .notFound("There is no row with key \(quotedKey(anchor)) in section \(quotedKey(sectionKey)).")
            }
            if case .after = position { index = anchorIndex + 1 } else { index = anchorIndex }
        }
        sections[sectionIndex].rows.insert(contentsOf: newRows, at: index)
    }

    /// Replaces the row with `row.key` in place, keeping its section and position.
    public mutating func replaceRow(_ row: Row) throws(ListEditError) {
        guard let (section, index) = location(ofRow: row.key) else { throw .notFound("There is no row with key \(quotedKey(row.key)).") }
        sections[section].rows[index] = row
    }

    /// Removes the row with this key and returns it.
    @discardableResult
    public mutating func removeRow(key: String) throws(ListEditError) -> Row {
        guard let (section, index) = location(ofRow: key) else { throw .notFound("There is no row with key \(quotedKey(key)).") }
        return sections[section].rows.remove(at: index)
    }
}
