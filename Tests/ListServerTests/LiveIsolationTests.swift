import Foundation
import ListModel
import ListModelTesting
import ListServerTesting
import ServerSupport
import Synchronization
import Testing

@testable import HTTPServer
@testable import ListServerHTTP
@testable import ListService

/// Heavy live work on one list (resets of a big list, writes to it) while another list is
/// written: the small list's streams stay exact. With `LIVE_MEASURE=1` the big list has 20,000
/// rows and the test prints how long the small list's writes (publish included) took; it asserts
/// no time (the numbers go in docs/LIVE.md and reports).
@Suite("Live hub: one list's heavy work beside another list's writes")
struct LiveIsolationTests {
    static var measuring: Bool { ProcessInfo.processInfo.environment["LIVE_MEASURE"] != nil }

    @Test func aSmallListsStreamsStayExactWhileABigListIsSubscribedAndWritten() throws {
        let bigRows = Self.measuring ? 20_000 : 1_000
        // Measuring, the small list is written for a fixed time, so that the big list's work is
        // the same however long the writes take.
        let smallWrites = 60
        let measureUntil = monotonicNanoseconds() + 15_000_000_000
        let harness = try LiveHarness(limits: LiveHub.Limits(maxBufferedBytes: 1 << 30))
        let bigShape = (sections: 20, rowsPerSection: bigRows / 20...bigRows / 20)
        var bigEdits = RandomListEdits(seed: 70)
        try harness.put("big", bigEdits.document(sections: bigShape.sections, rowsPerSection: bigShape.rowsPerSection))
        var smallEdits = RandomListEdits(seed: 71)
        try harness.put("small", smallEdits.document(sections: 2, rowsPerSection: 3...5))
        let watchers = [harness.subscribe("small", view: .json), harness.subscribe("small", view: .html, window: .limit(4))]
        let done = Atomic<Bool>(false)
        let writeTimes = Mutex<[UInt64]>([])
        let bigWriteTimes = Mutex<[UInt64]>([])
        let smallSubscribeTimes = Mutex<[UInt64]>([])
        let subscribeTimes = Mutex<(json: [UInt64], html: [UInt64])>(([], []))
        runConcurrently([
            {
                // Subscribes to the whole big list over and over, alternating the views.
                var round = 0
                while !done.load(ordering: .acquiring) {
                    let view: Subscriber.View = round % 2 == 0 ? .json : .html
                    let start = monotonicNanoseconds()
                    let client = harness.subscribe("big", view: view, window: .limit(bigRows))
                    let elapsed = monotonicNanoseconds() - start
                    subscribeTimes.withLock { view == .json ? $0.json.append(elapsed) : $0.html.append(elapsed) }
                    let bytes = client.drain().count
                    if Self.measuring && round < 2 { print("LIVE_MEASURE big-list \(view) reset bytes:", bytes, Double(elapsed) / 1e6) }
                    client.stream.terminated()
                    round += 1
                }
            },
            {
                // Writes the big list now and then, so its `view=json` document is new again.
                // One cell at a time, so the list keeps its rows and shows no state.
                var random = SplitMix64(seed: 72)
                var serial = 0
                while !done.load(ordering: .acquiring) {
                    serial += 1
                    let section = Int.random(in: 0..<bigShape.sections, using: &random)
                    let row = Int.random(in: bigShape.rowsPerSection, using: &random) - 1
                    let start = monotonicNanoseconds()
                    try harness.registry.write(id: "big") { document in
                        var document = document!
                        document.sections[section].rows[row].cells["name"] = .text("edit \(serial)")
                        return document
                    }
                    bigWriteTimes.withLock { $0.append(monotonicNanoseconds() - start) }
                    usleep(100_000)
                }
            },
            {
                // Subscribes to the small list over and over, as new visitors of it would.
                var round = 0
                while !done.load(ordering: .acquiring) {
                    let start = monotonicNanoseconds()
                    let client = harness.subscribe("small", view: round % 2 == 0 ? .json : .html)
                    smallSubscribeTimes.withLock { $0.append(monotonicNanoseconds() - start) }
                    try harness.pump(client)
                    client.stream.terminated()
                    round += 1
                    usleep(5_000)
                }
            },
            {
                var edits = RandomListEdits(seed: 71)
                _ = edits.document(sections: 2, rowsPerSection: 3...5)
                var written = 0
                while Self.measuring ? monotonicNanoseconds() < measureUntil : written < smallWrites {
                    written += 1
                    let start = monotonicNanoseconds()
                    try harness.edit("small", &edits, count: 2)
                    writeTimes.withLock { $0.append(monotonicNanoseconds() - start) }
                    usleep(2_000)
                }
                done.store(true, ordering: .releasing)
            },
        ])
        let current = try #require(harness.registry.snapshot(id: "small"))
        for client in watchers {
            try harness.pump(client)
            #expect(client.version == current.version, "\(client.view) watcher of the small list is current")
        }
        #expect(harness.hub.subscriberCount == watchers.count)
        if Self.measuring {
            let subscribes = subscribeTimes.withLock { $0 }
            print("LIVE_MEASURE small-list write (publish included), ms:", summary(writeTimes.withLock { $0 }))
            print("LIVE_MEASURE small-list subscribe, ms:", summary(smallSubscribeTimes.withLock { $0 }))
            print("LIVE_MEASURE big-list write, ms:", summary(bigWriteTimes.withLock { $0 }))
            print("LIVE_MEASURE big-list json subscribe, ms:", summary(subscribes.json))
            print("LIVE_MEASURE big-list html subscribe, ms:", summary(subscribes.html))
        }
    }

    /// Median, 90th percentile and maximum of nanosecond durations, in milliseconds.
    func summary(_ durations: [UInt64]) -> String {
        guard !durations.isEmpty else { return "none" }
        let sorted = durations.sorted()
        func ms(_ nanoseconds: UInt64) -> String { String(format: "%.2f", Double(nanoseconds) / 1e6) }
        return "n=\(sorted.count) median \(ms(sorted[sorted.count / 2])) p90 \(ms(sorted[sorted.count * 9 / 10])) max \(ms(sorted.last!))"
    }
}

/// Runs `bodies` on their own threads and waits for all of them; errors become test issues.
func runConcurrently(_ bodies: [@Sendable () throws -> Void], sourceLocation: SourceLocation = #_sourceLocation) {
    let group = DispatchGroup()
    let failures = Mutex<[String]>([])
    for body in bodies {
        group.enter()
        Thread {
            do { try body() } catch { failures.withLock { $0.append("\(error)") } }
            group.leave()
        }.start()
    }
    #expect(group.wait(timeout: .now() + 300) == .success, "threads finished", sourceLocation: sourceLocation)
    #expect(failures.withLock { $0 } == [], sourceLocation: sourceLocation)
}
