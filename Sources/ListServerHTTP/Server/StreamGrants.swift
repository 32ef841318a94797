import Dispatch
import Foundation
import HTTPServer
import ListService
import Synchronization

/// What let a stream open on a `--private` server, asked again while it stays open.
package struct StreamGrant: Sendable {
    /// Whether the credentials the stream opened with still allow it (after the tokens change).
    let stillAllowed: @Sendable () -> Bool
    /// When the view link that opened it expires (Unix seconds); nil when a token opened it.
    let expiry: Int?
}

/// Every open stream of a `--private` server with its `StreamGrant`: re-reading `--tokens`
/// (SIGHUP) ends the streams the new tokens no longer allow (`closeRevoked`), and a stream a
/// view link opened ends when the link expires. An ended stream's client reconnects and gets
/// the 401 or 403 a new request would (docs/ACCESS.md).
package final class StreamGrants: Sendable {
    private struct Entry: Sendable {
        let stream: ResponseStream
        let grant: StreamGrant
    }

    private let open = Mutex<[ObjectIdentifier: Entry]>([:])

    package init() {}

    /// How many streams are tracked (those of a private server).
    package var count: Int { open.withLock { $0.count } }

    /// Keeps `stream` until it ends, under `grant`.
    package func track(_ stream: ResponseStream, _ grant: StreamGrant) {
        let id = ObjectIdentifier(stream)
        open.withLock { $0[id] = Entry(stream: stream, grant: grant) }
        stream.onTermination { [self] in _ = open.withLock { $0.removeValue(forKey: id) } }
        if let expiry = grant.expiry {
            let seconds = max(0, Double(expiry) - Date().timeIntervalSince1970)
            DispatchQueue.global().asyncAfter(wallDeadline: .now() + seconds) { [weak stream] in stream?.cancel() }
        }
    }

    /// Ends every stream whose grant no longer holds; returns how many.
    @discardableResult
    package func closeRevoked() -> Int {
        let entries = open.withLock { Array($0.values) }
        var closed = 0
        for entry in entries where !entry.grant.stillAllowed() {
            entry.stream.cancel()
            closed += 1
        }
        return closed
    }
}

extension Authorization {
    /// The grant of a stream of list `id` opened by `request`; nil on a public server (nothing
    /// to ask again). `grantedBy` is what `requireRead` returned for it: the view link key that
    /// allowed the read, whose expiry ends the stream, or nil when the token did.
    package func streamGrant(_ request: Request, list id: String, grantedBy: String?) throws -> StreamGrant? {
        guard policy.isPrivate else { return nil }
        let token = try bearerToken(request).map(String.init)
        let key = request.query("key")
        let policy = policy
        return StreamGrant(
            stillAllowed: { policy.stillReads(token: token.map { Substring($0) }, key: key, list: id) },
            expiry: grantedBy.flatMap(ViewLinks.expiry(of:)))
    }

    /// The grant of a live index stream opened by `request` (with the rights its token has now):
    /// it holds while the token's rights stay the same, since they decide which lists it shows.
    package func indexGrant(_ request: Request) throws -> StreamGrant? {
        guard policy.isPrivate else { return nil }
        let token = try bearerToken(request).map(String.init)
        let policy = policy
        let rights = policy.currentRights(token: token.map { Substring($0) })
        return StreamGrant(stillAllowed: { policy.currentRights(token: token.map { Substring($0) }) == rights }, expiry: nil)
    }
}
