#if canImport(Glibc)
import Glibc
import ServerSupport
#endif

/// The bytes a stream still has to send, as references to shared buffers and how far the first
/// one has gone: a stream holds no copy of what it sends.
struct OutgoingQueue {
    private var chunks: [SharedBytes] = []
    private var head = 0
    /// Bytes of `chunks[head]` already sent.
    private var offset = 0
    /// Bytes not yet sent.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Queues `parts`, less their first `skipping` bytes (already sent).
    mutating func append(_ parts: [SharedBytes], skipping: Int = 0) {
        var skip = skipping
        for part in parts {
            if skip >= part.count {
                skip -= part.count
                continue
            }
            if chunks.isEmpty { offset = skip }
            chunks.append(part)
            count += part.count - skip
            skip = 0
        }
        compact()
    }

    /// Queues one buffer, less its first `skipping` bytes.
    mutating func append(_ part: SharedBytes, skipping: Int = 0) {
        guard skipping < part.count else { return }
        if chunks.isEmpty { offset = skipping }
        chunks.append(part)
        count += part.count - skipping
    }

    mutating func removeAll() {
        chunks = []
        head = 0
        offset = 0
        count = 0
    }

    /// Sends as much as `socket` takes now, without blocking.
    mutating func send(to socket: Int32) -> SocketSend.Outcome {
        while count > 0 {
            let outcome = SocketSend.send(
                Array(chunks[head..<min(chunks.count, head + SocketSend.maxParts)]),
                skipping: offset, to: socket)
            guard case .sent(let sent) = outcome else { return outcome }
            consume(sent)
            if sent == 0 { return .sent(0) }
        }
        return .sent(0)
    }

    /// Copies up to `max` queued bytes into `buffer` and takes them off the queue.
    mutating func copy(into buffer: UnsafeMutableRawPointer, max: Int) -> Int {
        var copied = 0
        while copied < max && head < chunks.count {
            let chunk = chunks[head]
            let take = min(chunk.count - offset, max - copied)
            (buffer + copied).copyMemory(from: chunk.base.pointer! + offset, byteCount: take)
            copied += take
            consume(take)
        }
        return copied
    }

    /// Takes `sent` bytes off the front.
    private mutating func consume(_ sent: Int) {
        var left = sent
        count -= sent
        while left > 0 {
            let rest = chunks[head].count - offset
            if left < rest {
                offset += left
                return
            }
            left -= rest
            head += 1
            offset = 0
        }
        compact()
    }

    private mutating func compact() {
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: chunks.count <= 8)
            head = 0
        } else if head > 32 {
            chunks.removeFirst(head)
            head = 0
        }
    }
}

/// One non-blocking `sendmsg` of several shared buffers.
enum SocketSend {
    /// Buffers handed to the kernel per call.
    static let maxParts = 64

    enum Outcome: Equatable {
        /// This many bytes went (fewer than given: the socket's buffer is full).
        case sent(Int)
        /// The connection is broken (the peer reset it, or it was shut down).
        case failed(Int32)
    }

    /// Sends `parts` (less their first `skipping` bytes) as far as the socket's buffer takes them.
    ///
    /// The corresponding C function is `sendmsg` (with `MSG_DONTWAIT | MSG_NOSIGNAL`).
    static func send(_ parts: [SharedBytes], skipping: Int, to socket: Int32) -> Outcome {
        if parts.count == 1, skipping < parts[0].count {
            return send(parts[0].base.pointer! + skipping, count: parts[0].count - skipping, to: socket)
        }
        var vectors: [iovec] = []
        vectors.reserveCapacity(parts.count)
        var skip = skipping
        for part in parts {
            if skip >= part.count {
                skip -= part.count
                continue
            }
            vectors.append(
                iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: part.base.pointer! + skip),
                    iov_len: part.count - skip))
            skip = 0
        }
        if vectors.isEmpty { return .sent(0) }
        return vectors.withUnsafeMutableBufferPointer { send($0, to: socket) }
    }

    /// Three buffers at most (a chunk's head, its bytes, its line end), without allocating.
    ///
    /// The corresponding C function is `sendmsg` (with `MSG_DONTWAIT | MSG_NOSIGNAL`).
    static func send(_ pieces: [UnsafeRawBufferPointer], to socket: Int32) -> Outcome {
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: pieces.count) { vectors in
            for (index, piece) in pieces.enumerated() {
                vectors[index] = iovec(iov_base: UnsafeMutableRawPointer(mutating: piece.baseAddress), iov_len: piece.count)
            }
            return send(vectors, to: socket)
        }
    }

    /// One `sendmsg` of `vectors`, as far as the socket's buffer takes them.
    private static func send(_ vectors: UnsafeMutableBufferPointer<iovec>, to socket: Int32) -> Outcome {
        let flags = Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)
        while true {
            var message = msghdr()
            message.msg_iov = vectors.baseAddress
            message.msg_iovlen = vectors.count
            let result = Glibc.sendmsg(socket, &message, flags)
            if result >= 0 { return .sent(result) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .sent(0)
            case let error: return .failed(error)
            }
        }
    }

    /// `count` bytes at `bytes`, as far as the socket's buffer takes them.
    ///
    /// The corresponding C function is `send` (with `MSG_DONTWAIT | MSG_NOSIGNAL`).
    static func send(_ bytes: UnsafeRawPointer, count: Int, to socket: Int32) -> Outcome {
        let flags = Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)
        while true {
            let result = Glibc.send(socket, bytes, count, flags)
            if result >= 0 { return .sent(result) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .sent(0)
            case let error: return .failed(error)
            }
        }
    }
}
