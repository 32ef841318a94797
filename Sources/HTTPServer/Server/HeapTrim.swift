import Dispatch
import Glibc
import ServerSupport
import Synchronization

/// Gives back to the system the heap that writes leave free behind them.
///
/// Parsing a large body builds its JSON tree out of millions of small allocations; once the
/// write is done they are free, but glibc keeps the pages (they are scattered among live ones),
/// so a server that took one PUT of 1,000,000 rows stayed ~800 MB larger than the list it holds
/// (`scripts/bench/server_memory.py`, docs/BENCHMARKS.md). Many small writes do the same a little
/// at a time: a list grown to 1,000,000 rows by 100 POSTs of 870 KB left about 100 B per row of
/// free heap (more than the row's JSON). `malloc_trim(0)` returns every free page (100-140 ms
/// after a 1,000,000-row PUT, holding each malloc arena's lock in turn).
///
/// The server calls `afterRequest` once a write handler with a body is done
/// (`HTTPServer+Handling`), whatever the route, and routes call `afterFreeing` after other work
/// that frees much (a large list's view sorted). Once the bytes since the last trim add up to
/// `burstBytes` (one large body, or a burst of small ones), a trim runs on a background queue
/// when such work has paused for `quietNanoseconds`; if they go on, every
/// `maxDelayNanoseconds`, and once more when they pause. A small write costs an atomic addition,
/// an atomic store and a clock read; trims run at most once per `maxDelayNanoseconds` while
/// writes last. A start trims once its lists are loaded (`trimNow`).
public enum HeapTrim {
    /// Bytes freed adding up to this (1 MiB) since the last trim are followed by a trim.
    static let burstBytes = 1 << 20
    /// How long work that frees heap must pause before the trim runs (1 s).
    static let quietNanoseconds: UInt64 = 1_000_000_000
    /// The longest a trim waits for the pause (10 s): a server written without pause still trims.
    static let maxDelayNanoseconds: UInt64 = 10_000_000_000

    /// Bytes freed (bodies, sorts) since the last trim began.
    private static let bytesSinceTrim = Atomic<Int>(0)
    /// When the last work that freed heap (a write with a body, a sort) was done (monotonic nanoseconds).
    private static let lastFreeing = Atomic<UInt64>(0)
    private static let pending = Atomic<Bool>(false)
    private static let queue = DispatchQueue(label: "list-server.heap-trim", qos: .utility)

    /// glibc's `malloc_trim`, looked up by name (Swift's Glibc module does not import `malloc.h`).
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    /// Trims now, on the caller's thread: after work that freed much more than it kept (loading
    /// every stored list at a start: each row's stored bytes and JSON).
    public static func trimNow(after what: String) {
        let milliseconds = timedTrim()  // not inside the log call: its message is made only at debug level
        Log.debug("heap trimmed after \(what), in \(milliseconds) ms")
    }

    /// Runs `malloc_trim(0)`; returns how long it took, in whole milliseconds.
    private static func timedTrim() -> Int {
        let started = monotonicNanoseconds()
        _ = trim?(0)
        return Int((Double(monotonicNanoseconds() - started) / 1e6).rounded())
    }

    /// glibc's `mallopt`, looked up by name as `trim` is.
    private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }()

    /// Allocations from this size (1 MiB) are mapped on their own, so freeing one gives it back.
    static let mappedAllocationBytes: Int32 = 1 << 20

    /// Fixes glibc's mmap threshold at `mappedAllocationBytes` (called once, at `HTTPServer.start`).
    ///
    /// By default glibc raises the threshold to the size of each mapped block freed, up to
    /// 32 MiB; after the first large write, the large buffers a view's build uses and frees
    /// (its rows' sort values, orders and entries: 24-64 MB for 1,000,000 rows) then come from
    /// the heap and stay resident once free. With 16 live views of a 1,000,000-row list that
    /// left 6-14 bytes per view row of free heap beside the views' 24 (`live_views.py`).
    static func mapLargeAllocations() {
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in malloc.h
        _ = mallopt?(mmapThreshold, mappedAllocationBytes)
    }

    /// Called when the handler of a request with a body of `bodyBytes` is done (answered or refused).
    static func afterRequest(bodyBytes: Int) { afterFreeing(bytes: bodyBytes) }

    /// Called after work that left about `bytes` of heap free behind it, counted as a body's
    /// bytes are: the sort of a large list's view off the connection's thread (its rows' sort
    /// values and orders, freed in pieces among the pieces it keeps). Sixteen live views of a
    /// 1,000,000-row list, sorted on other threads two at a time, left 6-7 bytes per view row
    /// free until a trim (`live_views.py`).
    public static func afterFreeing(bytes: Int) {
        guard bytes > 0 else { return }
        let now = monotonicNanoseconds()
        lastFreeing.store(now, ordering: .relaxed)
        guard bytesSinceTrim.add(bytes, ordering: .relaxed).newValue >= burstBytes else { return }
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        schedule(burstBegan: now, after: quietNanoseconds)
    }

    /// Runs the trim `delay` from now if such work has paused by then (or the burst is old
    /// enough), else looks again when the pause could be over. A trim made while it goes on is
    /// followed by another once it pauses: what the last of it frees is given back too.
    private static func schedule(burstBegan: UInt64, after delay: UInt64) {
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay))) {
            // Loaded before the clock is read: work stored there ended before `now`.
            let quietSince = lastFreeing.load(ordering: .relaxed)
            let now = monotonicNanoseconds()
            let paused = now &- quietSince >= quietNanoseconds
            let waited = now &- burstBegan
            if !paused, waited < maxDelayNanoseconds {
                let untilQuiet = quietSince &+ quietNanoseconds &- now
                schedule(burstBegan: burstBegan, after: min(untilQuiet, maxDelayNanoseconds &- waited))
                return
            }
            let bytes = bytesSinceTrim.exchange(0, ordering: .relaxed)
            let milliseconds = timedTrim()
            Log.debug("heap trimmed after work that freed about \(bytes) bytes, in \(milliseconds) ms")
            if paused {
                pending.store(false, ordering: .releasing)
            } else {
                schedule(burstBegan: monotonicNanoseconds(), after: quietNanoseconds)
            }
        }
    }
}
