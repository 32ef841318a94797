import Foundation
import ListModel

/// The tail of a server's small writes at 1,000,000 rows (`list-bench chained-tail`): 20,000
/// delete + re-insert writes at random rows, each made from the version before (as a server's
/// writes are) and timed alone in thread CPU, so that the rare write that pays for an amortised
/// whole-structure copy (the row key → order key map's fold) shows in p99.9 and max, which the
/// batch medians of `patches-small` leave out.
func runChainedTailBenchmark() {
    let document = writeBenchDocument(sections: 10, rows: 1_000_000)
    var list = IndexedList(document: document)
    var state: UInt64 = 11
    func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    var samples: [Double] = []
    samples.reserveCapacity(20_000)
    for _ in 0..<20_000 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407  // a fixed sequence
        let position = Int((state >> 33) % UInt64(list.rowCount))
        let row = list.row(atPosition: position)
        let section = list.sectionKey(atPosition: position)
        let started = now()
        let removed = try! list.removingRow(key: row.key).list
        list = try! removed.insertingRows([row], inSection: section, at: .end).list
        samples.append(now() - started)
    }
    let total = samples.reduce(0, +)
    samples.sort()
    func at(_ fraction: Double) -> String {
        String(format: "%.1f µs", samples[min(samples.count - 1, Int(Double(samples.count) * fraction))] * 1e6)
    }
    print(
        "1M rows, 20,000 chained delete + re-insert writes (thread CPU): median \(at(0.5)), p99 \(at(0.99)), "
            + "p99.9 \(at(0.999)), max \(String(format: "%.2f ms", samples.last! * 1e3)), mean \(String(format: "%.1f µs", total / 20_000 * 1e6))"
    )
}
