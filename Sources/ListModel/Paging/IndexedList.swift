/// A list document with the order key of each of its rows: what pages, cursors and
/// windows are computed from.
///
/// Rows are numbered by their flattened position (section by section, in document
/// order); `orderKeys[position]` strictly increases with the position. A new version of
/// the document comes in through `updated(to:)`, which keeps the keys of rows that did
/// not move and gives new and moved rows keys between their neighbours, or through a keyed
/// row edit (`replacingRow`, `removingRow`, `insertingRows`), which needs no diff.
public struct IndexedList: Sendable {
    /// The document; assumed valid (`ListDocument(json:)`), in particular row keys unique.
    public let document: ListDocument
    /// The order key of each row, by flattened position; strictly increasing. Chunked, so that
    /// versions share all but the chunks a write touched.
    public let orderKeys: ChunkedArray<OrderKey>
    /// Row key → order key. A row's position is found from its order key by binary search,
    /// so this map changes only for the rows an update re-keys, adds or removes.
    let orderKeyMap: OrderKeyMap
    /// The flattened position of each section's first row, then the row count.
    let sectionStarts: [Int]
    /// Section key → section index.
    let sectionIndexes: [ByteKey: Int]

    /// A fresh list: evenly spaced short keys (`OrderKey.spaced(count:)`).
    public init(document: ListDocument) {
        self.init(unchecked: document, orderKeys: ChunkedArray(OrderKey.spaced(count: document.rowCount)))
    }

    /// A list whose keys were stored earlier, e.g. read back from a database.
    ///
    /// - Throws: `IndexedListError` when the counts differ or the keys are not
    ///   well-formed, at most `Cursor.maxOrderKeyBytes` long and strictly increasing.
    public init(document: ListDocument, orderKeys: some Collection<OrderKey>) throws(IndexedListError) {
        try self.init(document: document, orderKeys: orderKeys, versions: nil)
    }

    /// A list whose keys and row versions were stored earlier (`versions[i]`: the version of the
    /// row at flattened position i; 0 for unknown).
    public init(document: ListDocument, orderKeys: some Collection<OrderKey>, versions: [Int]?) throws(IndexedListError) {
        guard orderKeys.count == document.rowCount, versions.map({ $0.count == document.rowCount }) ?? true else {
            throw IndexedListError(message: "\(orderKeys.count) order keys for \(document.rowCount) rows")
        }
        var previous: OrderKey?
        for (index, key) in orderKeys.enumerated() {
            guard key.isWellFormed, key.rawValue.utf8.count <= Cursor.maxOrderKeyBytes else {
                throw IndexedListError(message: "order key \(quotedKey(key.rawValue)) at position \(index) is malformed")
            }
            guard previous.map({ $0 < key }) ?? true else {
                throw IndexedListError(message: "order keys do not increase at position \(index)")
            }
            previous = key
        }
        self.init(unchecked: document, orderKeys: ChunkedArray(orderKeys), versions: versions)
    }

    /// A list from keys known to fit; the row-key map is computed unless given (with `versions`
    /// by flattened position, else version 0 for every row).
    init(
        unchecked document: ListDocument, orderKeys: ChunkedArray<OrderKey>, orderKeyMap knownMap: OrderKeyMap? = nil,
        versions: [Int]? = nil
    ) {
        self.document = document
        self.orderKeys = orderKeys
        if let knownMap {
            orderKeyMap = knownMap
        } else {
            var slots: [OrderKeyMap.Slot] = []
            slots.reserveCapacity(orderKeys.count)
            for (index, orderKey) in orderKeys.enumerated() {
                slots.append(OrderKeyMap.Slot(orderKey: orderKey, version: versions?[index] ?? 0))
            }
            orderKeyMap = OrderKeyMap(keys: flattenedRowKeys(document), slots: slots)
        }
        var starts: [Int] = []
        starts.reserveCapacity(document.sections.count + 1)
        var sectionIndexes: [ByteKey: Int] = [:]
        sectionIndexes.reserveCapacity(document.sections.count)
        var position = 0
        for (index, section) in document.sections.enumerated() {
            sectionIndexes[ByteKey(section.key)] = index
            starts.append(position)
            position += section.rows.count
        }
        starts.append(position)
        self.sectionStarts = starts
        self.sectionIndexes = sectionIndexes
    }

    /// The number of rows in all sections.
    public var rowCount: Int { orderKeys.count }

    /// The key of each row, by flattened position: built on each call, O(n).
    var rowKeys: [String] { flattenedRowKeys(document) }

    /// Row key → order key: lookups cost a dictionary lookup or two (`dictionary` gives it
    /// whole, in O(n)).
    public var orderKeysByRow: OrderKeyMap { orderKeyMap }

    /// The flattened position of the row with this key, or `nil` when there is none:
    /// a binary search for its order key.
    public func position(ofRow key: String) -> Int? {
        guard let orderKey = orderKeyMap[key] else { return nil }
        let position = firstPosition(notBefore: orderKey)
        return position < rowCount && orderKeys[position] == orderKey ? position : nil
    }

    /// The order key of the row with this key, or `nil` when there is none.
    public func orderKey(ofRow key: String) -> OrderKey? { orderKeyMap[key] }

    /// The version of the row with this key (the list version of the last write that stored it:
    /// changed its content or section, or moved it; 0 when not known), or `nil` when there is none.
    public func version(ofRow key: String) -> Int? { orderKeyMap.version(of: key) }

    /// The list with the version of each row in `keys` (distinct keys; rows it does not hold are
    /// skipped, but count for the shortcut) set to `version`: O(keys), the map's overlay takes the
    /// changes; when `keys` are as many as the rows, every row is set in one pass.
    public func stampingVersions(_ keys: some Collection<String>, version: Int) -> IndexedList {
        var map = orderKeyMap
        if keys.count >= rowCount && keys.count > 4_096 {
            // Every row (a list created or re-keyed whole): one pass, not an overlay entry each.
            map.setEveryVersion(version)
        } else {
            for key in keys { map.setVersion(key, version) }
        }
        return IndexedList(unchecked: document, orderKeys: orderKeys, orderKeyMap: map)
    }

    /// The list with every row's version taken from `old` where it holds the row (O(n)): for a
    /// list rebuilt whole from another version of itself.
    func carryingVersions(from old: IndexedList) -> IndexedList {
        var map = orderKeyMap
        for key in flattenedRowKeys(document) {
            if let version = old.orderKeyMap.version(of: key), version != 0 { map.setVersion(key, version) }
        }
        return IndexedList(unchecked: document, orderKeys: orderKeys, orderKeyMap: map)
    }

    /// The section index and row index of a flattened position (`0..<rowCount`).
    public func location(ofPosition position: Int) -> (section: Int, row: Int) {
        precondition(position >= 0 && position < rowCount, "row position out of range")
        // The last section whose first row is at or before `position` and that holds rows.
        var low = 0
        var high = sectionStarts.count - 1
        while low < high {
            let mid = (low + high) / 2
            if sectionStarts[mid + 1] <= position { low = mid + 1 } else { high = mid }
        }
        return (low, position - sectionStarts[low])
    }

    /// The row at a flattened position.
    public func row(atPosition position: Int) -> Row {
        let (section, row) = location(ofPosition: position)
        return document.sections[section].rows[row]
    }

    /// The key of the section holding the row at a flattened position.
    public func sectionKey(atPosition position: Int) -> String {
        document.sections[location(ofPosition: position).section].key
    }

    /// The cursor just after the row at a flattened position.
    public func cursor(atPosition position: Int) -> Cursor {
        let (section, row) = location(ofPosition: position)
        let sectionValue = document.sections[section]
        return Cursor(orderKey: orderKeys[position], rowKey: sectionValue.rows[row].key, sectionKey: sectionValue.key)
    }

    /// The position of the first row whose order key sorts after `key` (`rowCount` if none):
    /// a binary search.
    public func firstPosition(after key: OrderKey) -> Int {
        var low = 0
        var high = orderKeys.count
        while low < high {
            let mid = (low + high) / 2
            if key < orderKeys[mid] { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The position of the first row whose order key is `key` or sorts after it.
    func firstPosition(notBefore key: OrderKey) -> Int {
        var low = 0
        var high = orderKeys.count
        while low < high {
            let mid = (low + high) / 2
            if orderKeys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

/// The keys of all rows, section by section.
func flattenedRowKeys(_ document: ListDocument) -> [String] {
    var keys: [String] = []
    keys.reserveCapacity(document.rowCount)
    for section in document.sections {
        // In place: the collection's iterator would copy each row (a retain and release of its
        // cells and strings) to read one string.
        section.rows.forEachUnsafeElement(in: 0..<section.rows.count) { keys.append($0.pointee.key) }
    }
    return keys
}

/// Order keys that do not fit their document.
public struct IndexedListError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
