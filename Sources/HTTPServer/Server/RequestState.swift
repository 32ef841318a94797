/// What the server remembers about one request between access-handler calls.
final class RequestState {
    let rawURI: String
    let started = monotonicNanoseconds()
    var sawHeaders = false
    var body: [UInt8] = []
    var bodyTooLarge = false
    var discarded = 0
    var responded = false
    /// The framing guard refused this request (its method and target may be stand-ins).
    var framingViolation = false

    init(rawURI: String) { self.rawURI = rawURI }
}
