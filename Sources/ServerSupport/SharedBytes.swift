import Synchronization

/// Immutable bytes written to many streams without a copy: every stream that sends them holds a
/// reference, and the bytes go to each socket straight from this one buffer.
///
/// An event fanned out to 10,000 subscribers, or a document sent as the `reset` of 100, is one
/// `SharedBytes`; each stream keeps only its reference and how far it has sent it.
public final class SharedBytes: Sendable {
    public let bytes: [UInt8]
    /// The address of `bytes`' storage, fixed for its lifetime (the array is never mutated).
    package let base: UnsafeRawPointerBox

    /// These bytes as one frame of a transport (HTTPServer's HTTP/1.1 chunk), made by the first
    /// stream that sends them and kept for the others: a fan-out frames its event once, and each
    /// stream sends it in one `send`.
    package let framed = AtomicLazyReference<SharedBytes>()

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        base = UnsafeRawPointerBox(bytes.withUnsafeBytes { $0.baseAddress })
    }

    /// The UTF-8 bytes of `text`.
    public convenience init(_ text: String) { self.init(Array(text.utf8)) }

    public var count: Int { bytes.count }
}

/// A pointer into storage that outlives every use (see `SharedBytes.base`).
package struct UnsafeRawPointerBox: @unchecked Sendable {
    package let pointer: UnsafeRawPointer?
    package init(_ pointer: UnsafeRawPointer?) { self.pointer = pointer }
}
