/// The positions of a longest strictly increasing subsequence of `values`, ascending.
///
/// Patience sorting with binary search: O(n log n) time, O(n) space. The keyed diff
/// keeps the rows at these positions in place and moves every other kept row, which is
/// the minimal set of moves; order-key assignment keeps these rows' keys.
public func longestIncreasingSubsequence<T: Comparable>(_ values: [T]) -> [Int] {
    guard !values.isEmpty else { return [] }
    // Already increasing (every row stayed in order: the common case): all of it, in one pass.
    var increasing = true
    for index in 1..<values.count where !(values[index - 1] < values[index]) {
        increasing = false
        break
    }
    if increasing { return Array(values.indices) }
    // tails[k] = index in `values` of the smallest tail of an increasing run of length k + 1.
    var tails: [Int] = []
    tails.reserveCapacity(values.count)
    var previous = [Int](repeating: -1, count: values.count)
    for index in values.indices {
        let value = values[index]
        var low = 0
        var high = tails.count
        while low < high {
            let mid = (low + high) / 2
            if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
        }
        if low > 0 { previous[index] = tails[low - 1] }
        if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var result = [Int](repeating: 0, count: tails.count)
    var cursor = tails[tails.count - 1]
    for position in stride(from: tails.count - 1, through: 0, by: -1) {
        result[position] = cursor
        cursor = previous[cursor]
    }
    return result
}
