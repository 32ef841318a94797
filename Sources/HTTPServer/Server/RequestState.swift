import ServerSupport
import Synchronization

/// What the server remembers about one request between access-handler calls.
final class RequestState: @unchecked Sendable {
    let rawURI: String
    let started = monotonicNanoseconds()
    var sawHeaders = false
    var body: [UInt8] = []
    var bodyTooLarge = false
    var discarded = 0
    var responded = false
    /// The framing guard refused this request (its method and target may be stand-ins).
    var framingViolation = false
    /// Its handler runs off the connection's thread (`HTTPServer+Offload`); `answer` gets the
    /// response, which the access handler queues when libmicrohttpd calls it again.
    var offloaded = false
    let answer = Mutex<Response?>(nil)
    /// What the handler put off until its answer is on its way (`AfterAnswer`), set with
    /// `answer`; read and cleared on the connection's thread (`HTTPServer.runPutOff`).
    var putOff: AfterAnswer?

    /// False when the target held bytes that are not UTF-8 (`rawURI` then shows them as U+FFFD).
    let targetIsUTF8: Bool

    /// The request is HTTP/1.1: its client reads chunked bodies (set when its head is in).
    var isHTTP11 = false

    /// The state of a request whose raw target libmicrohttpd hands over as a C string.
    init(uri: UnsafePointer<CChar>?) {
        let valid = uri.flatMap { String(validatingCString: $0) }
        rawURI = valid ?? uri.map { String(cString: $0) } ?? "/"
        targetIsUTF8 = valid != nil || uri == nil
    }
}
