/// The first index in `0..<count` where `predicate` holds (it must be monotone: false, then
/// true), by binary search: where a cursor's rows resume in a list's or a view's order.
func lowerBound(_ count: Int, _ predicate: (Int) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
        let mid = (low + high) / 2
        if predicate(mid) { high = mid } else { low = mid + 1 }
    }
    return low
}
