import Crypto
import Foundation
import HTTPServer
import ServerSupport
import Synchronization

/// Who may read and write what (API.md section 2, "Scoped access"; docs/ACCESS.md).
///
/// Writes need a bearer token with `write` on the list, unless no token is configured at all
/// (then writes are open: allowed on loopback only). Reads are public, and ignore any
/// credential, unless `--private`: then a list's reads need `read` on it or its view link, the
/// indexes show only readable lists and `/metrics` needs `admin`. No token, or an unknown one:
/// 401 with a `Bearer` challenge; a known token without the right, or a bad view link: 403.
final class Authorization: Sendable {
    /// `--private`: reads need rights too.
    let isPrivate: Bool
    /// `--tokens`, re-read by `reload()`.
    let tokensPath: String?
    /// True when no token is configured at all: every write is allowed.
    let isOpen: Bool
    let viewLinks: ViewLinks
    private let master: String?
    private let digestKey = SymmetricKey(size: .bits256)
    private let table: Mutex<TokenTable>

    /// - Parameters:
    ///   - master: `--token` (every right).
    ///   - tokens: the entries of `--tokens`, already loaded from `tokensPath`.
    ///   - viewLinkSecret: the key view links are signed with.
    init(master: String?, tokens: [TokenFile.Entry], tokensPath: String?, isPrivate: Bool, viewLinkSecret: [UInt8]) {
        self.master = master
        self.tokensPath = tokensPath
        self.isPrivate = isPrivate
        self.isOpen = master == nil && tokensPath == nil
        self.viewLinks = ViewLinks(secret: viewLinkSecret)
        self.table = Mutex(TokenTable(master: master, file: tokens, key: digestKey))
    }

    /// How many tokens are accepted now (`--token` included).
    var tokenCount: Int { table.withLock { $0.count } }

    /// Re-reads `--tokens` (on SIGHUP). A file that cannot be read or parsed changes nothing;
    /// the returned message (a warning then) says why, with the line, never a token.
    @discardableResult
    func reload() -> (level: Log.Level, message: String) {
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

    // MARK: - Checks

    /// The rights of the request's bearer token, for a write; every right when the server is open.
    /// - Throws: 401 without a token or with an unknown one.
    func writer(_ request: Request) throws -> Rights {
        if isOpen { return .all }
        guard let rights = try bearerRights(request) else { throw Self.missingToken }
        return rights
    }

    /// Throws 403 unless `rights` include `write` on list `id`.
    func requireWrite(_ rights: Rights, on id: String) throws {
        guard rights.mayWrite(id) else { throw Self.forbidden("may not write list \"\(id)\"", scope: "write:\(id)") }
    }

    /// Checks that the request may read list `id`; returns the view link key that allowed it
    /// (to carry on in the links of the answer), or nil.
    /// - Throws: 401 with no credential or an unknown token, 403 without the right or for a
    ///   view link that is expired, altered or for another list.
    @discardableResult
    func requireRead(_ request: Request, list id: String) throws -> String? {
        guard isPrivate else { return nil }
        let rights = try bearerRights(request)
        if rights?.mayRead(id) == true { return nil }
        if let key = request.query("key") {
            switch viewLinks.check(key, for: id, now: Int(Date().timeIntervalSince1970)) {
            case .valid: return key
            case .expired: throw HTTPError(.forbidden, "This view link has expired; ask for a new one.")
            case .invalid: throw HTTPError(.forbidden, "This view link is not valid for list \"\(id)\".")
            }
        }
        guard rights != nil else { throw Self.missingToken }
        throw Self.forbidden("may not read list \"\(id)\"", scope: "read:\(id)")
    }

    /// Which lists the request may see in the indexes (`/`, `GET /lists`).
    /// - Throws: 401 when `--private` and there is no known bearer token.
    func readableLists(_ request: Request) throws -> @Sendable (String) -> Bool {
        guard isPrivate else { return { _ in true } }
        guard let rights = try bearerRights(request) else { throw Self.missingToken }
        return { rights.mayRead($0) }
    }

    /// Throws unless the request may see server internals (`/metrics`): always when public;
    /// with `--private`, 401 without a known token and 403 without `admin`.
    func requireAdmin(_ request: Request) throws {
        guard isPrivate else { return }
        guard let rights = try bearerRights(request) else { throw Self.missingToken }
        guard rights.isAdmin else { throw Self.forbidden("is not an admin token", scope: "admin") }
    }

    /// The rights of the request's `Authorization: Bearer` token; nil without the header.
    /// - Throws: 401 for another scheme or a token that is not known.
    private func bearerRights(_ request: Request) throws -> Rights? {
        guard let header = request.headers["Authorization"] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw Self.invalidToken }
        let token = parts[1].drop { $0 == " " }
        guard let rights = table.withLock({ $0.rights(of: token.utf8) }) else { throw Self.invalidToken }
        return rights
    }

    // MARK: - Answers

    static let realm = "Bearer realm=\"list-server\""

    static let missingToken = HTTPError(.unauthorized, "This needs an Authorization: Bearer token.",
                                        headers: ["WWW-Authenticate": realm])

    static let invalidToken = HTTPError(.unauthorized, "The bearer token is not one this server accepts.",
                                        headers: ["WWW-Authenticate": realm + ", error=\"invalid_token\""])

    static func forbidden(_ what: String, scope: String) -> HTTPError {
        HTTPError(.forbidden, "The bearer token \(what).",
                  headers: ["WWW-Authenticate": realm + ", error=\"insufficient_scope\", scope=\"\(scope)\""])
    }
}
