/// Row key → order key, cheap to copy and change by a few rows.
///
/// A list version shares its map with the previous one, so a plain dictionary would be copied
/// whole (every row) by the first insert or removal of each write. Here recent changes sit in a
/// small overlay over a shared base; the overlay is folded into the base once it holds more
/// than `base.count / 256` rows (at least 256), so a write costs a copy of the overlay, and one
/// write in some thousands at a million rows pays for copying the base.
public struct OrderKeyMap: Sendable {
    private var base: [String: OrderKey]
    /// Changes over `base`: a key's order key, or nil for a row that is gone.
    private var overlay: [String: OrderKey?] = [:]
    /// The number of rows mapped.
    public private(set) var count: Int

    init(_ dictionary: [String: OrderKey]) {
        base = dictionary
        count = dictionary.count
    }

    /// The order key of the row with this key, if any.
    public subscript(key: String) -> OrderKey? {
        if let changed = overlay[key] { return changed }
        return base[key]
    }

    /// Maps `key` to `orderKey`; returns false (changing nothing) when `key` is already mapped.
    @discardableResult
    mutating func insert(_ key: String, _ orderKey: OrderKey) -> Bool {
        guard self[key] == nil else { return false }
        change(key, to: orderKey)
        count += 1
        return true
    }

    /// Maps `key` to `orderKey`, whether or not it was mapped.
    mutating func set(_ key: String, _ orderKey: OrderKey) {
        if self[key] == nil { count += 1 }
        change(key, to: orderKey)
    }

    /// Forgets `key`, if mapped.
    mutating func remove(_ key: String) {
        guard self[key] != nil else { return }
        change(key, to: nil)
        count -= 1
    }

    /// Every mapping as one dictionary: O(n).
    public var dictionary: [String: OrderKey] {
        var merged = self
        merged.fold()
        return merged.base
    }

    private mutating func change(_ key: String, to orderKey: OrderKey?) {
        if orderKey == nil, base[key] == nil {
            overlay.removeValue(forKey: key)  // added since the last fold: nothing to hide
        } else {
            overlay[key] = .some(orderKey)
        }
        if overlay.count > max(256, base.count / 256) { fold() }
    }

    private mutating func fold() {
        guard !overlay.isEmpty else { return }
        base.reserveCapacity(count)
        for (key, orderKey) in overlay {
            if let orderKey { base[key] = orderKey } else { base.removeValue(forKey: key) }
        }
        overlay = [:]
    }
}
