/// The view keys of one section's rows of a `ListView`: every row's sort value in one byte
/// arena (no allocation per row) and its order key. Compared in place; `subscript` copies one out.
/// Sorted keys keep the arena in list order and read it through `order` (`permuted(by:)`).
struct ViewKeys: Sendable {
    /// The sort values' bytes, one after another, in the order the rows were appended.
    private(set) var bytes: [UInt8] = []
    /// Where each appended row's sort value ends in `bytes`.
    private var ends: [Int] = []
    private var orderKeys: [OrderKey] = []
    /// For keys put in another order: the appended row at each index.
    private var order: [Int32]?

    init() {}

    /// The keys `keys`, in their order.
    init(_ keys: [ViewKey]) {
        for key in keys { append(orderKey: key.orderKey) { $0 += key.sortValue.bytes } }
    }

    var count: Int { ends.count }

    /// The appended row at `index`.
    @inline(__always)
    private func appended(_ index: Int) -> Int { order.map { Int($0[index]) } ?? index }

    /// Where row `index`'s sort value is in `bytes`.
    @inline(__always)
    func range(_ index: Int) -> Range<Int> {
        let row = appended(index)
        return (row == 0 ? 0 : ends[row - 1])..<ends[row]
    }

    /// Row `index`'s order key.
    @inline(__always)
    func orderKey(_ index: Int) -> OrderKey { orderKeys[appended(index)] }

    /// Adds a row with `orderKey`; `write` appends its sort value (nothing: no value) to the arena.
    /// - Precondition: the keys were not put in another order.
    mutating func append(orderKey: OrderKey, _ write: (inout [UInt8]) -> Void) {
        precondition(order == nil, "rows appended to reordered keys")
        write(&bytes)
        ends.append(bytes.count)
        orderKeys.append(orderKey)
    }

    /// The view key of row `index`, its sort value copied out.
    subscript(index: Int) -> ViewKey {
        ViewKey(sortValue: SortValue(bytes: Array(bytes[range(index)])), orderKey: orderKey(index))
    }

    /// `SortValue.prefix(of:head:)` of row `index`'s sort value.
    func prefix(at index: Int, head: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer { bytes in
            head.withUnsafeBufferPointer { SortValue.prefix(of: UnsafeBufferPointer(rebasing: bytes[range(index)]), head: $0) }
        }
    }

    /// What the texts among the rows' sort values begin with (`SortValue.commonTextHead`).
    var commonTextHead: [UInt8] {
        bytes.withUnsafeBufferPointer { bytes in
            SortValue.commonTextHead((0..<count).lazy.map { UnsafeBufferPointer(rebasing: bytes[range($0)]) })
        }
    }

    /// The keys with row `i` the old row `order[i]` (a permutation of the rows): the arena is
    /// shared, not copied (copying a million rows' sort values took a sixth of a view's build).
    func permuted(by order: [Int]) -> ViewKeys {
        var result = self
        result.order = order.map { Int32(truncatingIfNeeded: appended($0)) }
        return result
    }

    /// Whether row `index` comes after `key` in a view sorted `descending` (or not).
    func comesAfter(_ key: ViewKey, at index: Int, descending: Bool) -> Bool {
        key.sortValue.bytes.withUnsafeBufferPointer { value in
            bytes.withUnsafeBufferPointer { bytes in
                ViewKey.precedes(
                    value, key.orderKey, UnsafeBufferPointer(rebasing: bytes[range(index)]), orderKey(index),
                    descending: descending)
            }
        }
    }

    /// Whether row `index` comes after `cursor` in a view sorted `descending` (or not).
    func comesAfter(_ cursor: ViewCursor, at index: Int, descending: Bool) -> Bool {
        bytes.withUnsafeBufferPointer { bytes in
            cursor.isBefore(UnsafeBufferPointer(rebasing: bytes[range(index)]), orderKey(index), descending: descending)
        }
    }
}
