/// Row key → order key, cheap to copy and change by a few rows.
///
/// A list version shares its map with the previous one, so a plain dictionary would be copied
/// whole (every row) by the first insert or removal of each write. Here recent changes sit in a
/// small overlay over a shared base; the overlay is folded into the base once it holds more
/// than `base.count / 256` rows (at least 256), so one write in some thousands at a million rows
/// pays for copying the base. The overlay is cut into `overlayShards` dictionaries by key hash,
/// so a write copies one shard (and the shards' references), not the whole overlay.
public struct OrderKeyMap: Sendable {
    private var base: [String: OrderKey]
    /// Changes over `base`: a key's order key, or nil for a row that is gone; by shard.
    private var overlay = [[String: OrderKey?]](repeating: [:], count: Self.overlayShards)
    /// The number of keys in `overlay`.
    private var overlayCount = 0
    private static var overlayShards: Int { 64 }
    /// The number of rows mapped.
    public private(set) var count: Int

    init(_ dictionary: [String: OrderKey]) {
        base = dictionary
        count = dictionary.count
    }

    /// The order key of the row with this key, if any.
    public subscript(key: String) -> OrderKey? {
        if overlayCount > 0, let changed = overlay[Self.shard(of: key)][key] { return changed }
        return base[key]
    }

    /// The overlay shard that holds `key`.
    private static func shard(of key: String) -> Int { key.hashValue & (overlayShards - 1) }

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
        let shard = Self.shard(of: key)
        if orderKey == nil, base[key] == nil {
            // Added since the last fold: nothing to hide.
            if overlay[shard].removeValue(forKey: key) != nil { overlayCount -= 1 }
        } else if overlay[shard].updateValue(orderKey, forKey: key) == nil {
            overlayCount += 1
        }
        if overlayCount > max(256, base.count / 256) { fold() }
    }

    private mutating func fold() {
        guard overlayCount > 0 else { return }
        base.reserveCapacity(count)
        for shard in overlay {
            for (key, orderKey) in shard {
                if let orderKey { base[key] = orderKey } else { base.removeValue(forKey: key) }
            }
        }
        overlay = [[String: OrderKey?]](repeating: [:], count: Self.overlayShards)
        overlayCount = 0
    }
}
