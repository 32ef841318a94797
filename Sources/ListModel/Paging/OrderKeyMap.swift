/// Row key → order key and row version, cheap to copy and change by a few rows. Row keys are
/// told apart by their bytes (`ByteKey`).
///
/// A list version shares its map with the previous one, so a plain dictionary would be copied
/// whole (every row) by the first insert or removal of each write. Here recent changes sit in a
/// small overlay over a shared base; the overlay is folded into the base once it holds more
/// than `base.count / 256` rows (at least 256), so one write in some thousands at a million rows
/// pays for copying the base. The overlay is cut into `overlayShards` dictionaries by key hash,
/// so a write copies one shard (and the shards' references), not the whole overlay.
///
/// Each row's version (the list version of the last write that stored it, 0 when unknown) sits
/// in the same entry as its order key: 8 bytes more per entry, no second table of row keys.
/// The base is an `OrderKeyTable` (about 50 bytes a row, where a `Dictionary` took 53 to 107).
public struct OrderKeyMap: Sendable {
    /// A row's order key and version.
    struct Slot: Sendable {
        var orderKey: OrderKey
        var version: Int
    }

    private var base: OrderKeyTable
    /// Changes over `base`: a key's slot, or nil for a row that is gone; by shard.
    private var overlay = [[ByteKey: Slot?]](repeating: [:], count: Self.overlayShards)
    /// The number of keys in `overlay`.
    private var overlayCount = 0
    private static var overlayShards: Int { 64 }
    /// The number of rows mapped.
    public private(set) var count: Int

    init(_ dictionary: [ByteKey: OrderKey]) {
        self.init(keys: dictionary.keys.map(\.string), slots: dictionary.values.map { Slot(orderKey: $0, version: 0) })
    }

    /// The map of `keys` (distinct) to `slots`.
    init(keys: [String], slots: [Slot]) {
        base = OrderKeyTable(keys: keys, slots: slots)
        count = keys.count
    }

    /// The slot of the row with this key, if any.
    func slot(_ key: String) -> Slot? {
        let key = ByteKey(key)
        if overlayCount > 0, let changed = overlay[Self.shard(of: key)][key] { return changed }
        return base.slot(key.string)
    }

    /// The order key of the row with this key, if any.
    public subscript(key: String) -> OrderKey? { slot(key)?.orderKey }

    /// The version of the row with this key (0 when unknown), if any.
    public func version(of key: String) -> Int? { slot(key)?.version }

    /// The overlay shard that holds `key`.
    private static func shard(of key: ByteKey) -> Int { key.hashValue & (overlayShards - 1) }

    /// Maps `key` to `orderKey` (version 0); returns false (changing nothing) when `key` is
    /// already mapped.
    @discardableResult
    mutating func insert(_ key: String, _ orderKey: OrderKey) -> Bool {
        guard slot(key) == nil else { return false }
        change(key, to: Slot(orderKey: orderKey, version: 0))
        count += 1
        return true
    }

    /// Maps `key` to `orderKey`, whether or not it was mapped; a mapped row keeps its version.
    mutating func set(_ key: String, _ orderKey: OrderKey) {
        let old = slot(key)
        if old == nil { count += 1 }
        change(key, to: Slot(orderKey: orderKey, version: old?.version ?? 0))
    }

    /// Sets the version of `key`, if mapped.
    mutating func setVersion(_ key: String, _ version: Int) {
        guard var slot = slot(key), slot.version != version else { return }
        slot.version = version
        change(key, to: slot)
    }

    /// Sets the version of every key: one pass over the map, no overlay.
    mutating func setEveryVersion(_ version: Int) {
        fold()
        base = base.settingEveryVersion(version)
    }

    /// Forgets `key`, if mapped.
    mutating func remove(_ key: String) {
        guard slot(key) != nil else { return }
        change(key, to: nil)
        count -= 1
    }

    /// Every mapping as one dictionary: O(n).
    public var dictionary: [ByteKey: OrderKey] {
        var merged = self
        merged.fold()
        var dictionary: [ByteKey: OrderKey] = [:]
        dictionary.reserveCapacity(count)
        merged.base.forEach { key, slot in dictionary[ByteKey(key)] = slot.orderKey }
        return dictionary
    }

    /// Every row's version as one dictionary: O(n).
    public var versions: [ByteKey: Int] {
        var merged = self
        merged.fold()
        var versions: [ByteKey: Int] = [:]
        versions.reserveCapacity(count)
        merged.base.forEach { key, slot in versions[ByteKey(key)] = slot.version }
        return versions
    }

    private mutating func change(_ key: String, to slot: Slot?) {
        let key = ByteKey(key)
        let shard = Self.shard(of: key)
        if slot == nil, base.slot(key.string) == nil {
            // Added since the last fold: nothing to hide.
            if overlay[shard].removeValue(forKey: key) != nil { overlayCount -= 1 }
        } else if overlay[shard].updateValue(slot, forKey: key) == nil {
            overlayCount += 1
        }
        if overlayCount > max(256, base.count / 256) { fold() }
    }

    private mutating func fold() {
        guard overlayCount > 0 else { return }
        base = base.merging(overlay)
        overlay = [[ByteKey: Slot?]](repeating: [:], count: Self.overlayShards)
        overlayCount = 0
    }
}
