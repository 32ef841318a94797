/// The row keys a document reader has seen and where, to report a repeated key with the place
/// of its first occurrence: `updateValue(_:forKey:)` and a subscript, as the
/// `Dictionary<String, (section: Int, row: Int)>` it replaces.
///
/// Keys are found through a `KeyIndex` (a hash of their bytes into an open-addressing table of
/// entry numbers, bytes compared only on a hash match): a 1M-row document does a million
/// inserts, which `Dictionary` spent about a fifth of validation on (SipHash, probing).
/// Keys are equal when their bytes are (`ByteKey`): canonically equivalent keys with other
/// bytes (NFC and NFD, U+212A KELVIN SIGN and "K") are different keys.
struct RowKeyTable {
    typealias Place = (section: Int, row: Int)

    /// Every key seen, in order, and where it was last put.
    private var keys: [String] = []
    private var places: [(section: Int32, row: Int32)] = []
    /// Entry numbers by the hash of their key's bytes.
    private var index = KeyIndex(capacity: 0)
    private var capacity = 0
    /// Scratch for `insert(_:)`: the batch's hashes, and the sum of the buckets it loaded
    /// ahead (kept so that the loads are not optimised away).
    private var hashes: [UInt64] = []
    private var touched: UInt32 = 0

    /// Room for `count` keys without growing.
    mutating func reserveCapacity(_ count: Int) {
        if count > capacity { rebuildIndex(capacity: count) }
        keys.reserveCapacity(count)
        places.reserveCapacity(count)
    }

    /// Where `key` was put last, if it was seen.
    subscript(key: String) -> Place? {
        guard let entry = entry(of: key, hashed: KeyIndex.hash(key)) else { return nil }
        return (Int(places[entry].section), Int(places[entry].row))
    }

    /// Records `key` at `place`; returns where it was before, if it was seen.
    mutating func updateValue(_ place: Place, forKey key: String) -> Place? {
        updateValue(place, forKey: key, hashed: KeyIndex.hash(key))
    }

    /// A row key waiting to be recorded (`insert(_:)`).
    struct Pending {
        let key: String
        let section: Int
        let row: Int
    }

    /// Records the keys of `batch` in order, as `updateValue` one by one, up to the first that
    /// was seen before: returns it and where it was.
    ///
    /// The keys are hashed first and the table's bucket for each is loaded in one tight loop,
    /// so that the processor fetches them from memory together rather than one after another.
    mutating func insert(_ batch: [Pending]) -> (Pending, Place)? {
        hashes.removeAll(keepingCapacity: true)
        for pending in batch { hashes.append(KeyIndex.hash(pending.key)) }
        if keys.count + batch.count > capacity { rebuildIndex(capacity: max(16, 2 * (keys.count + batch.count))) }
        touched &+= index.touch(hashes)
        for (pending, hash) in zip(batch, hashes) {
            if let first = updateValue((pending.section, pending.row), forKey: pending.key, hashed: hash) {
                return (pending, first)
            }
        }
        return nil
    }

    private mutating func updateValue(_ place: Place, forKey key: String, hashed: UInt64) -> Place? {
        let stored = (section: Int32(truncatingIfNeeded: place.section), row: Int32(truncatingIfNeeded: place.row))
        if let entry = entry(of: key, hashed: hashed) {
            defer { places[entry] = stored }
            return (Int(places[entry].section), Int(places[entry].row))
        }
        let entry = keys.count
        keys.append(key)
        places.append(stored)
        if entry >= capacity { rebuildIndex(capacity: max(16, capacity * 2)) }
        index.insert(hash: hashed, position: Int32(entry))
        return nil
    }

    /// The entry of `key`, whose hash is `hashed`.
    private func entry(of key: String, hashed: UInt64) -> Int? {
        let keys = self.keys
        let found = index.find(hash: hashed) { utf8Equal(keys[Int($0)], key) }
        return found < 0 ? nil : Int(found)
    }

    private mutating func rebuildIndex(capacity: Int) {
        self.capacity = capacity
        index = KeyIndex(capacity: capacity)
        for (entry, key) in keys.enumerated() { index.insert(hash: KeyIndex.hash(key), position: Int32(entry)) }
    }
}
