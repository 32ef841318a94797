import Foundation
import ListStore
import Synchronization

// Commit latency of the two stores, side by side, and the PostgreSQL change feed's delay.
//   store-bench POSTGRES_URL SQLITE_PATH [writes] [rows]
// Writes alternate (SQLite, PostgreSQL, SQLite, …) so both see the same machine load.
// Run through scripts/bench/store.sh, which starts a private PostgreSQL (fsync on).

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print("usage: store-bench POSTGRES_URL SQLITE_PATH [writes] [rows]")
    exit(2)
}
let writes = arguments.count > 3 ? Int(arguments[3]) ?? 2_000 : 2_000
let bulkRows = arguments.count > 4 ? Int(arguments[4]) ?? 100_000 : 100_000

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3
}

func summary(_ samples: [Double]) -> String {
    let sorted = samples.sorted()
    func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] }
    return String(format: "p50 %.3f ms  p90 %.3f ms  p99 %.3f ms  (n=%d)", at(0.5), at(0.9), at(0.99), sorted.count)
}

func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

func row(_ index: Int) -> StoredRow {
    StoredRow(
        key: "r\(index)", section: "s", orderKey: String(format: "a%07d", index),
        body: Array("{\"key\":\"r\(index)\",\"cells\":{\"name\":\"row \(index)\",\"n\":\(index)}}".utf8))
}

let postgres = try PostgresStore(url: arguments[1])
let sqlite = try SQLiteStore(path: arguments[2])
let stores: [(name: String, store: any Store)] = [("SQLite", sqlite), ("PostgreSQL", postgres)]

// One-row writes to a list of 1,000 rows.
var versions = [0, 0]
for (index, entry) in stores.enumerated() {
    try entry.store.commit(
        StoreWrite(
            id: "bench", version: 1, meta: Array("{}".utf8), upsertedRows: (0..<1_000).map(row),
            deletedRowKeys: [], patch: Array("[]".utf8)))
    versions[index] = 1
}
var latencies: [[Double]] = [[], []]
for write in 0..<writes {
    for (index, entry) in stores.enumerated() {
        versions[index] += 1
        var changed = row(write % 1_000)
        changed.body = Array("{\"key\":\"\(changed.key)\",\"cells\":{\"name\":\"v\(versions[index])\"}}".utf8)
        let patch = Array(
            "[{\"op\":\"replace\",\"path\":\"/sections/0/rows/\(write % 1_000)/cells/name\",\"value\":\"v\(versions[index])\"}]".utf8)
        let start = ContinuousClock.now
        try entry.store.commit(
            StoreWrite(
                id: "bench", version: versions[index], meta: Array("{}".utf8),
                upsertedRows: [changed], deletedRowKeys: [], patch: patch))
        latencies[index].append(milliseconds(ContinuousClock.now - start))
    }
}
print("one-row commit, list of 1,000 rows, \(writes) writes each, interleaved:")
for (index, entry) in stores.enumerated() {
    print("  \(entry.name.padding(toLength: 11, withPad: " ", startingAt: 0)) \(summary(latencies[index]))")
}
print(String(format: "  PostgreSQL / SQLite median: %.2fx", median(latencies[1]) / median(latencies[0])))

// A list created with many rows in one write.
var bulk: [[Double]] = [[], []]
for round in 0..<3 {
    for (index, entry) in stores.enumerated() {
        let start = ContinuousClock.now
        try entry.store.commit(
            StoreWrite(
                id: "bulk\(round)", version: 1, meta: Array("{}".utf8), upsertedRows: (0..<bulkRows).map(row),
                deletedRowKeys: [], patch: Array("[]".utf8)))
        bulk[index].append(milliseconds(ContinuousClock.now - start))
    }
}
print("creating a list of \(bulkRows) rows in one write, 3 rounds interleaved:")
for (index, entry) in stores.enumerated() {
    print(
        String(
            format: "  %@ median %.0f ms (%@)", entry.name.padding(toLength: 11, withPad: " ", startingAt: 0),
            median(bulk[index]), bulk[index].map { String(format: "%.0f", $0) }.joined(separator: ", ")))
}

// The change feed: a commit on one store to the event on another.
let listener = try PostgresStore(url: arguments[1])
let arrivals = Mutex<[Int: ContinuousClock.Instant]>([:])
let ready = Mutex(false)
listener.startChangeFeed { event in
    switch event {
    case .resync: ready.withLock { $0 = true }
    case .committed(let id, let version) where id == "feed": arrivals.withLock { $0[version] = ContinuousClock.now }
    case .committed: break
    }
}
while !ready.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.01) }
var feed: [Double] = [], afterCommit: [Double] = []
for version in 1...300 {
    let start = ContinuousClock.now
    try postgres.commit(StoreWrite(id: "feed", version: version, meta: [], upsertedRows: [row(1)], deletedRowKeys: [], patch: []))
    let committed = ContinuousClock.now
    let deadline = ContinuousClock.now + .seconds(5)
    while arrivals.withLock({ $0[version] }) == nil && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.0002) }
    guard let arrived = arrivals.withLock({ $0[version] }) else {
        print("  version \(version) never arrived")
        continue
    }
    feed.append(milliseconds(arrived - start))
    afterCommit.append(milliseconds(arrived - committed))
    Thread.sleep(forTimeInterval: 0.01)
}
print("commit on one store to .committed on another (feed), one write at a time:")
print("  from the commit call:      \(summary(feed))")
print("  from the commit's return:  \(summary(afterCommit))")
listener.close()
postgres.close()
