import ServerSupport

/// What the hub needs of a subscriber's open response: write shared event bytes in order, learn
/// how much the client has not received, end it, and hear when it has closed.
///
/// Declared here, on the hub's side, so that the hub knows nothing of HTTP; the server's
/// `ResponseStream` conforms in the glue (`App/ResponseStream+SubscriberStream.swift`), and tests
/// may give the hub any stream. Every method may be called from any thread, under the hub's locks:
/// none may call back into the hub (a closed stream's `onTermination` handlers run outside them).
package protocol SubscriberStream: AnyObject, Sendable {
    /// Sends `parts` in order after everything written before; false once the stream has ended.
    @discardableResult func write(_ parts: [SharedBytes]) -> Bool
    /// Sends one shared buffer; false once the stream has ended.
    @discardableResult func write(_ bytes: SharedBytes) -> Bool
    /// Sends one shared buffer unless more than `limit` bytes wait unsent in the stream already
    /// (the fan-out's call: a slow client is marked stale rather than buffered without end).
    func write(_ bytes: SharedBytes, ifQueuedAtMost limit: Int?) -> StreamWriteResult
    /// Bytes written that the client has not received yet; 0 when it has everything.
    var unsentByteCount: Int { get }
    /// Ends the stream once what was written has been sent.
    func finish()
    /// Ends the stream now, dropping what is still queued.
    func cancel()
    /// Runs `handler` once when the stream has closed, for whatever reason (at once if it has).
    func onTermination(_ handler: @escaping @Sendable () -> Void)
}
