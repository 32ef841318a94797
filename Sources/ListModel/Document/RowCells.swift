/// A row's cells: values by column key, packed in insertion order into one heap object.
///
/// Reads and writes like a dictionary (`cells["name"]`, `cells["name"] = .text("x")`,
/// `cells["name"] = nil`, `for (key, value) in cells`, a dictionary literal, `==` ignoring
/// order), but holds its keys and values as bytes next to each other (`CellStorage`): about the
/// size of their JSON, and read in place by the HTML renderer (`withPackedCells`), in column
/// order, without hashing or copying. Setting a key that is present replaces its value where it
/// is; a new key goes last; every change packs the cells anew (rows hold tens of cells).
/// Lookups are linear.
/// Documents read from JSON (`ListDocument(json:)`) have their cells in column order, as in the
/// canonical form; `init(_:)` from a `Dictionary` orders by key, so the result does not depend on
/// hashing.
public struct RowCells: Sendable {
    public typealias Element = (key: String, value: CellValue)

    /// One cell as a key and a value (see `entries`).
    public struct Entry: Sendable {
        public let key: String
        public var value: CellValue
    }

    /// The cells, packed in one object (`CellStorage`); nil when there are none.
    @usableFromInline nonisolated(unsafe) var storage: CellStorage?

    /// The cells in order, each key once, as values (decoded from the packed storage on each
    /// call: read them in place with `withPackedCells` on a hot path).
    public internal(set) var entries: [Entry] {
        get {
            guard let storage else { return [] }
            return storage.withCells { cells in (0..<cells.count).map { Self.entry(cells[$0]) } }
        }
        set { self = RowCells(encoding: newValue.lazy.map { ($0.key, $0.value) }) }
    }

    /// No cells.
    public init() { storage = nil }

    /// The cells of `dictionary`, ordered by key.
    public init(_ dictionary: [String: CellValue]) {
        self.init(encoding: dictionary.sorted { $0.key < $1.key }.lazy.map { ($0.key, $0.value) })
    }

    /// Cells from pairs with distinct keys, in their order; traps on a repeated key, like `Dictionary`.
    public init(uniqueKeysWithValues pairs: some Sequence<(String, CellValue)>) {
        var seen: [String] = []
        for (key, _) in pairs {
            precondition(!seen.contains(key), "RowCells: duplicate key \(key.debugDescription)")
            seen.append(key)
        }
        self.init(encoding: pairs)
    }

    /// Cells from pairs whose keys the caller knows are distinct, in their order.
    init(encoding pairs: some Sequence<(String, CellValue)>) {
        var encoder = CellEncoder()
        for (key, value) in pairs { encoder.append(key: key, value: value) }
        self.init(encoder)
    }

    /// The cells `encoder` holds.
    init(_ encoder: CellEncoder) {
        storage = encoder.offsets.isEmpty ? nil : CellStorage.make(encoder)
    }

    /// Appends a cell whose key the caller knows is not present yet.
    mutating func appendNew(key: String, value: CellValue) {
        self = RowCells(encoding: Array(self) + [(key, value)])
    }

    /// Room for `minimumCapacity` cells (the packed storage is sized when made: nothing to do).
    public mutating func reserveCapacity(_ minimumCapacity: Int) {}

    /// The number of cells.
    public var count: Int { storage?.count ?? 0 }

    /// Calls `body` with the cells as stored, read in place: keys and values as bytes, nothing
    /// copied or decoded. For readers on a hot path (the HTML renderer).
    @inlinable
    public func withPackedCells<Result>(_ body: (PackedCells) throws -> Result) rethrows -> Result {
        guard let storage else { return try body(.empty) }
        return try storage.withCells(body)
    }

    /// The position of the cell with `key` (keys compare as `String`s do), if there is one.
    public func index(forKey key: String) -> Int? {
        index(forKey: key, hint: 0)
    }

    /// `index(forKey:)`, trying position `hint` first (cells in column order find their column's
    /// key at the column's position).
    func index(forKey key: String, hint: Int) -> Int? {
        var key = key
        return key.withUTF8 { utf8 in withPackedCells { cells in cells.index(ofKey: utf8, hint: hint) } }
    }

    /// The value of the cell with `key`; setting `nil` removes the cell.
    public subscript(key: String) -> CellValue? {
        get {
            guard let index = index(forKey: key) else { return nil }
            return self[index].value
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
        var pairs = Array(self)
        guard let index = index(forKey: key) else {
            pairs.append((key, value))
            self = RowCells(encoding: pairs.lazy.map { ($0.key, $0.value) })
            return nil
        }
        let old = pairs[index].value
        pairs[index].value = value
        self = RowCells(encoding: pairs.lazy.map { ($0.key, $0.value) })
        return old
    }

    /// Removes the cell `key`, keeping the others' order; returns its value.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> CellValue? {
        guard let index = index(forKey: key) else { return nil }
        var pairs = Array(self)
        let removed = pairs.remove(at: index).value
        self = RowCells(encoding: pairs.lazy.map { ($0.key, $0.value) })
        return removed
    }

    /// Removes every cell.
    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        storage = nil
    }

    /// The value of the cell with `key`, or `defaultValue` when there is none; setting stores it.
    public subscript(key: String, default defaultValue: @autoclosure () -> CellValue) -> CellValue {
        get { self[key] ?? defaultValue() }
        set { self[key] = newValue }
    }

    /// The cells `isIncluded` keeps, in order.
    public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> RowCells {
        RowCells(encoding: try Array(self).filter(isIncluded).lazy.map { ($0.key, $0.value) })
    }

    /// The same keys with transformed values, in order.
    public func mapValues(_ transform: (CellValue) throws -> CellValue) rethrows -> RowCells {
        RowCells(encoding: try Array(self).map { ($0.key, try transform($0.value)) })
    }

    /// The keys, in order.
    public var keys: [String] { map(\.key) }
    /// The values, in order.
    public var values: [CellValue] { map(\.value) }
    /// The cells as a dictionary.
    public var dictionary: [String: CellValue] {
        Dictionary(uniqueKeysWithValues: lazy.map { ($0.key, $0.value) })
    }

    /// Calls `body` with the cells as `Entry` values in a buffer (decoded for the call; prefer
    /// `withPackedCells`, which reads them in place).
    public func withUnsafeEntries<Result>(_ body: (UnsafeBufferPointer<Entry>) throws -> Result) rethrows -> Result {
        try entries.withUnsafeBufferPointer(body)
    }

    static func entry(_ cell: PackedCell) -> Entry {
        Entry(key: String(decoding: cell.key, as: UTF8.self), value: cell.value.cellValue)
    }

    /// The packed bytes, for a quick equality check.
    func sameBytes(as other: RowCells) -> Bool {
        switch (storage, other.storage) {
        case (nil, nil): return true
        case (let a?, let b?):
            if a === b { return true }
            guard a.header.count == b.header.count, a.header.byteCount == b.header.byteCount else { return false }
            let bytes = Int(a.header.count) * 4 + Int(a.header.byteCount)
            return a.withUnsafeMutablePointerToElements { left in
                b.withUnsafeMutablePointerToElements { right in ListModel.sameBytes(left, right, count: bytes) }
            }
        default: return false
        }
    }
}

extension RowCells: RandomAccessCollection {
    public typealias Index = Int
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public subscript(position: Int) -> Element {
        let entry = withPackedCells { Self.entry($0[position]) }
        return (key: entry.key, value: entry.value)
    }
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
        if lhs.sameBytes(as: rhs) { return true }
        let left = lhs.entries
        if left.elementsEqual(rhs.entries, by: { utf8Equal($0.key, $1.key) && $0.value == $1.value }) { return true }
        return left.allSatisfy { entry in rhs[entry.key] == entry.value }
    }
}

extension RowCells: CustomStringConvertible, CustomDebugStringConvertible {
    /// `["key": value, …]`, like a dictionary's.
    public var description: String {
        guard !isEmpty else { return "[:]" }
        return "[" + map { "\($0.key.debugDescription): \($0.value)" }.joined(separator: ", ") + "]"
    }

    public var debugDescription: String { description }
}

/// Whether `count` bytes at `a` and `b` are equal, compared a word at a time. For a value's
/// bytes: equal bytes mean an equal value (same inline contents, same storage references);
/// different bytes say nothing.
@inline(__always)
func sameBytes<T>(_ a: UnsafePointer<T>, _ b: UnsafePointer<T>, count: Int) -> Bool {
    sameBytes(UnsafeRawPointer(a), UnsafeRawPointer(b), count: count)
}

@inline(__always)
func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
    var offset = 0
    while offset + 8 <= count {
        if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
            return false
        }
        offset += 8
    }
    while offset < count {
        if a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) { return false }
        offset += 1
    }
    return true
}
