/// Lays the old and the new order of one container's items on a single ordered line of slots.
///
/// The anchors (items that keep their place: a longest increasing subsequence) appear in the
/// same order in both sequences and share a slot. Between two anchors come the old
/// non-anchors of that gap (old order), then the new non-anchors of that gap (new order). So
/// the occupied slots, read in order, always spell the container's current array: at the start
/// the old slots are occupied; once every item sits in its new slot it is the new array.
///
/// - Parameters:
///   - base: the first slot number to use.
///   - oldSlot: receives (old position, slot) for each old item.
///   - newSlot: receives (new position, slot) for each new item.
/// - Returns: the slot number after the last one used.
/// - Precondition: the anchors of both sequences pair up in order (same number, same order).
func layOutSlots(
    oldCount: Int, oldIsAnchor: (Int) -> Bool,
    newCount: Int, newIsAnchor: (Int) -> Bool,
    base: Int,
    oldSlot: (Int, Int) -> Void, newSlot: (Int, Int) -> Void
) -> Int {
    var slot = base
    var old = 0
    var new = 0
    while true {
        while old < oldCount && !oldIsAnchor(old) {
            oldSlot(old, slot)
            slot += 1
            old += 1
        }
        while new < newCount && !newIsAnchor(new) {
            newSlot(new, slot)
            slot += 1
            new += 1
        }
        guard old < oldCount else { break }
        precondition(new < newCount, "anchors must pair up")
        oldSlot(old, slot)
        newSlot(new, slot)
        slot += 1
        old += 1
        new += 1
    }
    precondition(new == newCount, "anchors must pair up")
    return slot
}
