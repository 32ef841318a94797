/// The view keys of one section's rows of a `ListView`: every row's sort value in one byte
/// arena (no allocation per row) and its order key. Compared in place; `subscript` copies one out.
struct ViewKeys: Sendable {
    /// The sort values' bytes, one after another.
    private(set) var bytes: [UInt8] = []
    /// Where each row's sort value ends in `bytes`.
    private(set) var ends: [Int] = []
    private(set) var orderKeys: [OrderKey] = []

    init() {}

    /// The keys `keys`, in their order.
    init(_ keys: [ViewKey]) {
        for key in keys { append(orderKey: key.orderKey) { $0 += key.sortValue.bytes } }
    }

    var count: Int { ends.count }

    /// Where row `index`'s sort value is in `bytes`.
    @inline(__always)
    func range(_ index: Int) -> Range<Int> { (index == 0 ? 0 : ends[index - 1])..<ends[index] }

    /// Adds a row with `orderKey`; `write` appends its sort value (nothing: no value) to the arena.
    mutating func append(orderKey: OrderKey, _ write: (inout [UInt8]) -> Void) {
        write(&bytes)
        ends.append(bytes.count)
        orderKeys.append(orderKey)
    }

    /// The view key of row `index`, its sort value copied out.
    subscript(index: Int) -> ViewKey {
        ViewKey(sortValue: SortValue(bytes: Array(bytes[range(index)])), orderKey: orderKeys[index])
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

    /// The keys with row `i` the old row `order[i]` (a permutation of the rows).
    func permuted(by order: [Int]) -> ViewKeys {
        var result = ViewKeys()
        result.bytes.reserveCapacity(bytes.count)
        result.ends.reserveCapacity(count)
        result.orderKeys.reserveCapacity(count)
        bytes.withUnsafeBufferPointer { bytes in
            for index in order {
                result.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range(index)]))
                result.ends.append(result.bytes.count)
                result.orderKeys.append(orderKeys[index])
            }
        }
        return result
    }

    /// Whether row `index` comes after `key` in a view sorted `descending` (or not).
    func comesAfter(_ key: ViewKey, at index: Int, descending: Bool) -> Bool {
        key.sortValue.bytes.withUnsafeBufferPointer { value in
            bytes.withUnsafeBufferPointer { bytes in
                ViewKey.precedes(
                    value, key.orderKey, UnsafeBufferPointer(rebasing: bytes[range(index)]), orderKeys[index],
                    descending: descending)
            }
        }
    }

    /// Whether row `index` comes after `cursor` in a view sorted `descending` (or not).
    func comesAfter(_ cursor: ViewCursor, at index: Int, descending: Bool) -> Bool {
        bytes.withUnsafeBufferPointer { bytes in
            cursor.isBefore(UnsafeBufferPointer(rebasing: bytes[range(index)]), orderKeys[index], descending: descending)
        }
    }
}
