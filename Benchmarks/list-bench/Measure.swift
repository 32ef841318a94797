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
