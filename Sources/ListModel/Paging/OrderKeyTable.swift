/// The folded entries of an `OrderKeyMap`: row keys and their slots in two arrays side by side,
/// found through a `KeyIndex` (4 bytes a bucket, at most half full). Never changed once made, so
/// map versions share it; a fold makes a new one.
///
/// About 50 bytes a row (16 for the key, 24 for the slot, 4 to 16 for the index), where a
/// `Dictionary<ByteKey, Slot>` took 53 to 107 (40-byte buckets, at most 3/4 full, a power of two
/// of them: 84 at 1,000,000 rows). A row that is gone stays as an entry without a slot until
/// they are a quarter of the entries, so that a fold copies the arrays and the index instead of
/// hashing every key again.
final class OrderKeyTable: Sendable {
    typealias Slot = OrderKeyMap.Slot

    /// Every entry's row key; the index's positions point here.
    let keys: [String]
    /// Every entry's slot; nil for a row that is gone.
    let slots: [Slot?]
    let index: KeyIndex
    /// The most entries `index` can point to.
    let capacity: Int
    /// The entries with a slot.
    let count: Int

    private init(keys: [String], slots: [Slot?], index: KeyIndex, capacity: Int, count: Int) {
        self.keys = keys
        self.slots = slots
        self.index = index
        self.capacity = capacity
        self.count = count
    }

    /// A table of `keys` (distinct) and their `slots`, indexed afresh.
    convenience init(keys: [String], slots: [Slot]) {
        let capacity = Self.capacity(for: keys.count)
        var index = KeyIndex(capacity: capacity)
        for (entry, key) in keys.enumerated() { index.insert(hash: KeyIndex.hash(key), position: Int32(entry)) }
        self.init(keys: keys, slots: slots, index: index, capacity: capacity, count: keys.count)
    }

    /// Room for `count` entries and then as many as fit while the index stays at most half full.
    private static func capacity(for count: Int) -> Int {
        var size = 16
        while size < count * 2 { size <<= 1 }
        return size / 2
    }

    /// The entry of `key`, if the table has one (with or without a slot).
    func entry(of key: String) -> Int? {
        let found = index.find(hash: KeyIndex.hash(key)) { utf8Equal(keys[Int($0)], key) }
        return found < 0 ? nil : Int(found)
    }

    /// The slot of `key`, if its row is here.
    func slot(_ key: String) -> Slot? { entry(of: key).flatMap { slots[$0] } }

    /// This table with `changes` made (a key's new slot, or nil for a row that is gone).
    func merging(_ changes: [[ByteKey: Slot?]]) -> OrderKeyTable {
        let changed = changes.reduce(0) { $0 + $1.count }
        var allSlots: [Slot?] = []
        allSlots.reserveCapacity(keys.count + changed)
        allSlots.append(contentsOf: slots)
        var addedKeys: [String] = []
        var count = self.count
        for shard in changes {
            for (key, slot) in shard {
                if let entry = entry(of: key.string) {
                    count += (slot == nil ? 0 : 1) - (allSlots[entry] == nil ? 0 : 1)
                    allSlots[entry] = slot
                } else if let slot {
                    addedKeys.append(key.string)
                    allSlots.append(slot)
                    count += 1
                }
            }
        }
        var allKeys: [String] = []
        allKeys.reserveCapacity(keys.count + addedKeys.count)
        allKeys.append(contentsOf: keys)
        allKeys.append(contentsOf: addedKeys)
        if allKeys.count > capacity || allKeys.count - count > allKeys.count / 4 {
            return compacted(keys: allKeys, slots: allSlots, count: count)
        }
        var index = self.index
        for entry in keys.count..<allKeys.count {
            index.insert(hash: KeyIndex.hash(allKeys[entry]), position: Int32(entry))
        }
        return OrderKeyTable(keys: allKeys, slots: allSlots, index: index, capacity: capacity, count: count)
    }

    /// A table of the entries of `keys` and `slots` that have a slot, indexed afresh.
    private func compacted(keys: [String], slots: [Slot?], count: Int) -> OrderKeyTable {
        var liveKeys: [String] = []
        var liveSlots: [Slot] = []
        liveKeys.reserveCapacity(count)
        liveSlots.reserveCapacity(count)
        for (key, slot) in zip(keys, slots) {
            if let slot {
                liveKeys.append(key)
                liveSlots.append(slot)
            }
        }
        return OrderKeyTable(keys: liveKeys, slots: liveSlots)
    }

    /// This table with every slot's version set to `version` (keys and index shared).
    func settingEveryVersion(_ version: Int) -> OrderKeyTable {
        let slots = self.slots.map { $0.map { Slot(orderKey: $0.orderKey, version: version) } }
        return OrderKeyTable(keys: keys, slots: slots, index: index, capacity: capacity, count: count)
    }

    /// Calls `body` with every row's key and slot.
    func forEach(_ body: (String, Slot) -> Void) {
        for (key, slot) in zip(keys, slots) {
            if let slot { body(key, slot) }
        }
    }
}
