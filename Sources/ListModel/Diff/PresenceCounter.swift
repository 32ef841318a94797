/// Which slots of a fixed ordered space are occupied, with O(log n) updates and ranks.
///
/// A Fenwick tree of 0/1 counts. The keyed diff lays every item that exists at some moment
/// of a patch on one line of slots ordered like the document, so an item's index in its array
/// at any moment is the number of occupied slots before it in its container.
struct PresenceCounter {
    /// `tree[i]` sums the counts of slots `i - lowbit(i) ..< i` (1-based Fenwick layout).
    private var tree: [Int32]

    /// A counter over `occupied.count` slots, occupied where `occupied` is true. O(n).
    init(occupied: [Bool]) {
        var tree = [Int32](repeating: 0, count: occupied.count + 1)
        for index in occupied.indices where occupied[index] { tree[index + 1] += 1 }
        var index = 1
        while index < tree.count {
            let parent = index + (index & -index)
            if parent < tree.count { tree[parent] += tree[index] }
            index += 1
        }
        self.tree = tree
    }

    /// Marks `slot` occupied; it must be free.
    mutating func occupy(_ slot: Int) { add(1, at: slot) }

    /// Marks `slot` free; it must be occupied.
    mutating func free(_ slot: Int) { add(-1, at: slot) }

    /// The number of occupied slots before `slot`.
    func occupiedBefore(_ slot: Int) -> Int {
        var index = slot
        var sum: Int32 = 0
        while index > 0 {
            sum &+= tree[index]
            index &= index - 1
        }
        return Int(sum)
    }

    private mutating func add(_ delta: Int32, at slot: Int) {
        var index = slot + 1
        while index < tree.count {
            tree[index] &+= delta
            index += index & -index
        }
    }
}
