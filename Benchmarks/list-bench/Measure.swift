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

/// Keeps the optimiser from discarding a result.
@inline(never)
func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// Formats seconds as milliseconds with two decimals.
func ms(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }

/// Formats a throughput in MB/s.
func mbps(bytes: Int, seconds: Double) -> String { String(format: "%.0f MB/s", Double(bytes) / seconds / 1e6) }
