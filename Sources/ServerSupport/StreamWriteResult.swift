/// What became of a write to a stream that refuses bytes once too many wait unsent
/// (`ResponseStream.write(_:ifQueuedAtMost:)`, the fan-out's call).
public enum StreamWriteResult: Sendable, Equatable {
    /// Sent, or queued behind bytes being sent.
    case written
    /// Not written: more than the limit is queued already (a slow client).
    case behind
    /// Not written: the stream has ended.
    case closed
}
