import Dispatch
import Glibc
import ServerSupport
import Synchronization

/// Gives back to the system the heap a large request leaves free behind it.
///
/// Parsing a large body builds its JSON tree out of millions of small allocations; once the
/// write is done they are free, but glibc keeps the pages (they are scattered among live ones),
/// so a server that took one PUT of 1,000,000 rows stayed ~800 MB larger than the list it holds
/// (`scripts/bench/server_memory.py`, docs/BENCHMARKS.md). `malloc_trim(0)` returns every free
/// page (100-140 ms after a 1,000,000-row PUT, holding each malloc arena's lock in turn); it runs
/// on a background queue a second after such a write, one for all the large writes of that second.
/// The server calls it once a write handler with a body is done (`HTTPServer+Offload`), whatever
/// the route.
enum HeapTrim {
    /// Bodies from this size on (1 MiB) are followed by a trim.
    static let bodyThreshold = 1 << 20

    private static let pending = Atomic<Bool>(false)
    private static let queue = DispatchQueue(label: "list-server.heap-trim", qos: .utility)

    /// glibc's `malloc_trim`, looked up by name (Swift's Glibc module does not import `malloc.h`).
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    /// Called when the handler of a request with a body of `bodyBytes` is done (answered or refused).
    static func afterRequest(bodyBytes: Int) {
        guard bodyBytes >= bodyThreshold else { return }
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.asyncAfter(deadline: .now() + .seconds(1)) {
            pending.store(false, ordering: .releasing)
            let started = monotonicNanoseconds()
            _ = trim?(0)
            let milliseconds = Double(monotonicNanoseconds() - started) / 1e6
            Log.debug("heap trimmed after a write of \(bodyBytes) bytes, in \(Int(milliseconds.rounded())) ms")
        }
    }
}
