import Crypto
import Foundation
import ServerSupport
import Synchronization

/// Who may read and write what (API.md section 2, "Scoped access"; docs/ACCESS.md), decided from
/// a bearer token and a view-link key, whatever protocol carried them (the HTTP adapter is
/// `Authorization` in ListServerHTTP).
///
/// Writes need a token with `write` on the list, unless no token is configured at all (then
/// writes are open: allowed on loopback only). Reads are public, and ignore any credential,
/// unless `--private`: then a list's reads need `read` on it or its view link, the indexes show
/// only readable lists and `/metrics` needs `admin`. A denial is an `AccessDenial`.
package final class AccessPolicy: Sendable {
    /// `--private`: reads need rights too.
    package let isPrivate: Bool
    /// `--tokens`, re-read by `reload()`.
    package let tokensPath: String?
    /// True when no token is configured at all: every write is allowed.
    package let isOpen: Bool
    package let viewLinks: ViewLinks
    private let master: String?
    private let digestKey = SymmetricKey(size: .bits256)
    private let table: Mutex<TokenTable>

    /// - Parameters:
    ///   - master: `--token` (every right).
    ///   - tokens: the entries of `--tokens`, already loaded from `tokensPath`.
    ///   - viewLinkSecret: the key view links are signed with.
    package init(master: String?, tokens: [TokenFile.Entry], tokensPath: String?, isPrivate: Bool, viewLinkSecret: [UInt8]) {
        self.master = master
        self.tokensPath = tokensPath
        self.isPrivate = isPrivate
        self.isOpen = master == nil && tokensPath == nil
        self.viewLinks = ViewLinks(secret: viewLinkSecret)
        self.table = Mutex(TokenTable(master: master, file: tokens, key: digestKey))
    }

    /// How many tokens are accepted now (`--token` included).
    package var tokenCount: Int { table.withLock { $0.count } }

    /// Re-reads `--tokens` (on SIGHUP). A file that cannot be read or parsed changes nothing;
    /// the returned message (a warning then) says why, with the line, never a token.
    @discardableResult
    package func reload() -> (level: Log.Level, message: String) {
        guard let tokensPath else { return (.warning, "SIGHUP: there is no --tokens file to re-read") }
        do {
            let entries = try TokenFile.load(path: tokensPath)
            let fresh = TokenTable(master: master, file: entries, key: digestKey)
            table.withLock { $0 = fresh }
            return (.info, "tokens file \(tokensPath) re-read: \(entries.count) tokens")
        } catch {
            return (.warning, "tokens file \(tokensPath) not re-read, the \(tokenCount) tokens from before stay: \(error)")
        }
    }

    /// 32 bytes from the system's cryptographic random source.
    package static func randomSecret() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    // MARK: - Decisions (`token`: the bearer token presented, nil for none)

    /// The rights of `token`, for a write; every right when the server is open.
    package func writer(token: Substring?) throws(AccessDenial) -> Rights {
        if isOpen { return .all }
        guard let rights = try rights(of: token) else { throw .missingToken }
        return rights
    }

    /// Throws unless `rights` include `write` on list `id`.
    package func requireWrite(_ rights: Rights, on id: String) throws(AccessDenial) {
        guard rights.mayWrite(id) else { throw .forbidden("may not write list \"\(id)\"", scope: "write:\(id)") }
    }

    /// Checks that `token` or the view link `key` may read list `id`; returns the key when it
    /// was what allowed it (to carry on in the links of the answer), or nil.
    @discardableResult
    package func requireRead(token: Substring?, key: String?, list id: String) throws(AccessDenial) -> String? {
        guard isPrivate else { return nil }
        let rights = try rights(of: token)
        if rights?.mayRead(id) == true { return nil }
        if let key {
            switch viewLinks.check(key, for: id, now: Int(Date().timeIntervalSince1970)) {
            case .valid: return key  // a read link or an edit link
            case .expired: throw .viewLinkExpired
            case .invalid: throw .viewLinkInvalid(list: id)
            }
        }
        guard rights != nil else { throw .missingToken }
        throw .forbidden("may not read list \"\(id)\"", scope: "read:\(id)")
    }

    /// The rights of an edit link's `key` on list `id`, for a write (when the request has no token).
    package func linkWriter(key: String, list id: String) throws(AccessDenial) -> Rights {
        switch viewLinks.check(key, for: id, now: Int(Date().timeIntervalSince1970)) {
        case .valid(.write): return Rights(scopes: [.write(ListPattern(id)!)])
        case .valid(.read): throw .readOnlyLink(list: id)
        case .expired: throw .viewLinkExpired
        case .invalid: throw .viewLinkInvalid(list: id)
        }
    }

    /// Whether `token` or the view link `key` still opens list `id` (as `requireRead` decides
    /// now): asked again of every open stream when the tokens are re-read.
    package func stillReads(token: Substring?, key: String?, list id: String) -> Bool {
        do {
            _ = try requireRead(token: token, key: key, list: id)
            return true
        } catch {
            return false
        }
    }

    /// The rights `token` has now (nil for none or an unknown token): an index stream ends when
    /// they change.
    package func currentRights(token: Substring?) -> Rights? {
        do { return try rights(of: token) } catch { return nil }
    }

    /// Which lists `token` may see in the indexes.
    package func readableLists(token: Substring?) throws(AccessDenial) -> @Sendable (String) -> Bool {
        guard isPrivate else { return { _ in true } }
        guard let rights = try rights(of: token) else { throw .missingToken }
        return { rights.mayRead($0) }
    }

    /// Throws unless `token` may see server internals: always allowed when public.
    package func requireAdmin(token: Substring?) throws(AccessDenial) {
        guard isPrivate else { return }
        guard let rights = try rights(of: token) else { throw .missingToken }
        guard rights.isAdmin else { throw .forbidden("is not an admin token", scope: "admin") }
    }

    /// The rights of `token`; nil for no token; throws for a token that is not known.
    private func rights(of token: Substring?) throws(AccessDenial) -> Rights? {
        guard let token else { return nil }
        guard let rights = table.withLock({ $0.rights(of: token.utf8) }) else { throw .invalidToken }
        return rights
    }
}

/// Why access was refused.
package enum AccessDenial: Error, Equatable {
    /// No credential where one is needed.
    case missingToken
    /// A token of another scheme, or one that is not known.
    case invalidToken
    /// A known token without the right (`what` it may not do, the `scope` that would allow it).
    case forbidden(_ what: String, scope: String)
    case viewLinkExpired
    case viewLinkInvalid(list: String)
    /// A (read) view link presented for a write.
    case readOnlyLink(list: String)
}
