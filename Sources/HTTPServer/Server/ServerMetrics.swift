import Synchronization

/// Counters the server keeps about itself, rendered in Prometheus text format by `prometheusText`.
public final class ServerMetrics: Sendable {
    private struct Counters {
        /// Responses by status code, at `code - 100` for 100...599 (counted without hashing).
        var byStatus = [Int](repeating: 0, count: 500)
        /// Responses with any other code.
        var other: [Int: Int] = [:]
        var durationNanoseconds: UInt64 = 0
        var requests = 0

        /// The codes sent at least once, with their counts.
        var sent: [Int: Int] {
            var sent = other
            for (index, count) in byStatus.enumerated() where count > 0 { sent[index + 100] = count }
            return sent
        }
    }

    private let counters = Mutex(Counters())
    private let inFlight = Atomic<Int>(0)
    private let streams = Atomic<Int>(0)
    private let slowHeads = Atomic<Int>(0)
    private let slowBodies = Atomic<Int>(0)

    public init() {}

    func requestStarted() { inFlight.add(1, ordering: .relaxed) }
    func requestEnded() { inFlight.subtract(1, ordering: .relaxed) }
    func streamOpened() { streams.add(1, ordering: .relaxed) }
    func streamClosed() { streams.subtract(1, ordering: .relaxed) }

    func slowRequestsClosed(heads: Int, bodies: Int) {
        slowHeads.add(heads, ordering: .relaxed)
        slowBodies.add(bodies, ordering: .relaxed)
    }

    func responded(status: Int, nanoseconds: UInt64) {
        counters.withLock {
            if (100..<600).contains(status) { $0.byStatus[status - 100] += 1 } else { $0.other[status, default: 0] += 1 }
            $0.durationNanoseconds &+= nanoseconds
            $0.requests += 1
        }
    }

    /// Streaming responses currently open.
    public var openStreams: Int { streams.load(ordering: .relaxed) }

    /// Requests the server has received and not yet finished. A live stream counts until its
    /// head is sent (then it is in `openStreams`).
    public var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }

    /// Responses sent so far, by status code.
    public var responsesByStatus: [Int: Int] { counters.withLock { $0.sent } }

    /// The metrics as Prometheus text exposition lines, each name prefixed with `prefix`.
    public func prometheusText(prefix: String) -> String {
        let (snapshot, sent) = counters.withLock { ($0, $0.sent) }
        var text = """
            # HELP \(prefix)http_responses_total HTTP responses sent, by status code.
            # TYPE \(prefix)http_responses_total counter

            """
        for status in sent.keys.sorted() {
            text += "\(prefix)http_responses_total{status=\"\(status)\"} \(sent[status]!)\n"
        }
        text += """
            # HELP \(prefix)http_handler_seconds Time spent from request start to queued response.
            # TYPE \(prefix)http_handler_seconds summary
            \(prefix)http_handler_seconds_sum \(Double(snapshot.durationNanoseconds) / 1e9)
            \(prefix)http_handler_seconds_count \(snapshot.requests)
            # HELP \(prefix)http_requests_in_flight Requests received and not yet finished (a live stream until its head is sent).
            # TYPE \(prefix)http_requests_in_flight gauge
            \(prefix)http_requests_in_flight \(requestsInFlight)
            # HELP \(prefix)http_slow_requests_closed_total Connections closed because a request head or body missed its deadline.
            # TYPE \(prefix)http_slow_requests_closed_total counter
            \(prefix)http_slow_requests_closed_total{part="head"} \(slowHeads.load(ordering: .relaxed))
            \(prefix)http_slow_requests_closed_total{part="body"} \(slowBodies.load(ordering: .relaxed))
            # HELP \(prefix)open_streams Streaming responses (SSE) currently open.
            # TYPE \(prefix)open_streams gauge
            \(prefix)open_streams \(openStreams)

            """
        return text
    }
}
