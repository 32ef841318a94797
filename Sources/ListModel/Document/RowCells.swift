/// A row's cells: values by column key, kept in one small array in insertion order.
///
/// Reads and writes like a dictionary (`cells["name"]`, `cells["name"] = .text("x")`,
/// `cells["name"] = nil`, `for (key, value) in cells`, a dictionary literal, `==` ignoring
/// order), but its entries sit next to each other, so the HTML renderer reads them in place,
/// in column order, without hashing or copying. Setting a key that is present replaces its
/// value where it is; a new key goes last. Lookups are linear: rows hold tens of cells.
/// Documents read from JSON (`ListDocument(json:)`) have their cells in column order, as in the
/// canonical form; `init(_:)` from a `Dictionary` orders by key, so the result does not depend on
/// hashing.
public struct RowCells: Sendable {
    public typealias Element = (key: String, value: CellValue)

    /// One cell as stored (see `withUnsafeEntries`).
    public struct Entry: Sendable {
        public let key: String
        public var value: CellValue
    }

    /// The cells as stored, in order, each key once. One reference: a `Row` compared byte for
    /// byte compares this.
    public internal(set) var entries: [Entry]

    /// No cells.
    public init() { entries = [] }

    /// The cells of `dictionary`, ordered by key.
    public init(_ dictionary: [String: CellValue]) {
        entries = dictionary.sorted { $0.key < $1.key }.map { Entry(key: $0.key, value: $0.value) }
    }

    /// Cells from pairs with distinct keys, in their order; traps on a repeated key, like `Dictionary`.
    public init(uniqueKeysWithValues pairs: some Sequence<(String, CellValue)>) {
        entries = []
        for (key, value) in pairs {
            precondition(index(forKey: key) == nil, "RowCells: duplicate key \(key.debugDescription)")
            entries.append(Entry(key: key, value: value))
        }
    }

    /// Appends a cell whose key the caller knows is not present yet.
    mutating func appendNew(key: String, value: CellValue) {
        entries.append(Entry(key: key, value: value))
    }

    /// Room for `minimumCapacity` cells.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        entries.reserveCapacity(minimumCapacity)
    }

    /// The position of the cell with `key`, if there is one.
    public func index(forKey key: String) -> Int? {
        entries.withUnsafeBufferPointer { entries in
            for index in entries.indices where entries[index].key == key { return index }
            return nil
        }
    }

    /// `index(forKey:)`, trying position `hint` first (cells in column order find their column's
    /// key at the column's position).
    func index(forKey key: String, hint: Int) -> Int? {
        if hint < entries.count, entries[hint].key == key { return hint }
        return index(forKey: key)
    }

    /// The value of the cell with `key`; setting `nil` removes the cell.
    public subscript(key: String) -> CellValue? {
        get {
            guard let index = index(forKey: key) else { return nil }
            return entries[index].value
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Sets the cell `key` to `value` (in place when present, else last); returns the old value.
    @discardableResult
    public mutating func updateValue(_ value: CellValue, forKey key: String) -> CellValue? {
        guard let index = index(forKey: key) else {
            entries.append(Entry(key: key, value: value))
            return nil
        }
        let old = entries[index].value
        entries[index].value = value
        return old
    }

    /// Removes the cell `key`, keeping the others' order; returns its value.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> CellValue? {
        guard let index = index(forKey: key) else { return nil }
        return entries.remove(at: index).value
    }

    /// Removes every cell.
    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        entries.removeAll(keepingCapacity: keepCapacity)
    }

    /// The value of the cell with `key`, or `defaultValue` when there is none; setting stores it.
    public subscript(key: String, default defaultValue: @autoclosure () -> CellValue) -> CellValue {
        get { self[key] ?? defaultValue() }
        set { self[key] = newValue }
    }

    /// The cells `isIncluded` keeps, in order.
    public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> RowCells {
        var kept = RowCells()
        kept.entries = try entries.filter { try isIncluded((key: $0.key, value: $0.value)) }
        return kept
    }

    /// The same keys with transformed values, in order.
    public func mapValues(_ transform: (CellValue) throws -> CellValue) rethrows -> RowCells {
        var mapped = RowCells()
        mapped.entries = try entries.map { Entry(key: $0.key, value: try transform($0.value)) }
        return mapped
    }

    /// The keys, in order.
    public var keys: [String] { entries.map(\.key) }
    /// The values, in order.
    public var values: [CellValue] { entries.map(\.value) }
    /// The cells as a dictionary.
    public var dictionary: [String: CellValue] {
        Dictionary(uniqueKeysWithValues: entries.lazy.map { ($0.key, $0.value) })
    }

    /// Calls `body` with the cells in place, in order, for readers on a hot path: no cell is
    /// copied (reading `Element`s builds tuples).
    @inlinable
    public func withUnsafeEntries<Result>(_ body: (UnsafeBufferPointer<Entry>) throws -> Result) rethrows -> Result {
        try entries.withUnsafeBufferPointer(body)
    }
}

extension RowCells: RandomAccessCollection {
    public typealias Index = Int
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { entries.count }
    @inlinable public subscript(position: Int) -> Element { (key: entries[position].key, value: entries[position].value) }
}

extension RowCells: ExpressibleByDictionaryLiteral {
    /// Cells in the literal's order; traps on a repeated key, like a `Dictionary` literal.
    public init(dictionaryLiteral elements: (String, CellValue)...) {
        self.init(uniqueKeysWithValues: elements)
    }
}

extension RowCells: Equatable {
    /// The same keys with equal values, in any order (as `Dictionary` compares).
    public static func == (lhs: RowCells, rhs: RowCells) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.entries.elementsEqual(rhs.entries, by: { $0.key == $1.key && $0.value == $1.value }) { return true }
        return lhs.entries.allSatisfy { entry in rhs[entry.key] == entry.value }
    }
}

extension RowCells: CustomStringConvertible, CustomDebugStringConvertible {
    /// `["key": value, …]`, like a dictionary's.
    public var description: String {
        guard !isEmpty else { return "[:]" }
        return "[" + entries.map { "\($0.key.debugDescription): \($0.value)" }.joined(separator: ", ") + "]"
    }

    public var debugDescription: String { description }
}
