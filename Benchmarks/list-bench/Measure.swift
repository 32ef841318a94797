import Foundation

/// Runs `body` `iterations` times after one warm-up and returns the median in seconds.
func medianSeconds(iterations: Int = 11, _ body: () -> Void) -> Double {
    body()
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    samples.sort()
    return samples[samples.count / 2]
}

/// Like `medianSeconds`, but in this thread's CPU time, which a shared machine disturbs far
/// less than wall-clock time (other processes' time slices are not counted).
func medianThreadCPUSeconds(iterations: Int = 11, _ body: () -> Void) -> Double {
    func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    body()
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = now()
        body()
        samples.append(now() - start)
    }
    samples.sort()
    return samples[samples.count / 2]
}

/// Keeps the optimiser from discarding a result.
@inline(never)
func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// Formats seconds as milliseconds with two decimals.
func ms(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }

/// Formats a throughput in MB/s.
func mbps(bytes: Int, seconds: Double) -> String { String(format: "%.0f MB/s", Double(bytes) / seconds / 1e6) }

/// The thread CPU time of one run of `body`, for bodies too short to time one by one (tens of
/// microseconds, where a single sample is at the mercy of one cache flush or interrupt): runs are
/// timed in batches of at least `batchSeconds`, each batch's time divided by its runs, and the
/// median and the minimum of `samples` batches returned. The batch size is set from the fastest
/// of a few single runs after a warm-up.
func batchedThreadCPUSeconds(
    samples: Int = 31, batchSeconds: Double = 0.005,
    _ body: () -> Void
) -> (median: Double, min: Double) {
    func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    body()
    var fastest = Double.infinity
    for _ in 0..<5 {
        let start = now()
        body()
        fastest = min(fastest, now() - start)
    }
    let runs = max(1, Int((batchSeconds / max(fastest, 1e-9)).rounded(.up)))
    var perRun: [Double] = []
    perRun.reserveCapacity(samples)
    for _ in 0..<samples {
        let start = now()
        for _ in 0..<runs { body() }
        perRun.append((now() - start) / Double(runs))
    }
    perRun.sort()
    return (perRun[perRun.count / 2], perRun[0])
}

/// Formats seconds as milliseconds with three significant digits (0.0213 ms, 5.17 ms, 2582 ms).
func msPrecise(_ seconds: Double) -> String {
    let value = seconds * 1000
    let decimals = value >= 100 ? 0 : value >= 10 ? 1 : value >= 1 ? 2 : value >= 0.1 ? 3 : 4
    return String(format: "%.\(decimals)f ms", value)
}
