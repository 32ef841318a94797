import HTTPServer
import ListService

/// The HTTP side of `AccessPolicy`: reads the credentials a request carries (an
/// `Authorization: Bearer` token, a view link's `key` parameter) and asks the policy; a denial
/// answers 401 (no or unknown credential, with a `Bearer` challenge) or 403 (`AccessDenial+HTTP`).
package struct Authorization: Sendable {
    package let policy: AccessPolicy

    package init(policy: AccessPolicy) { self.policy = policy }

    /// The rights of the request's bearer token, for a write; every right when the server is open.
    /// With `list` (the list the write is to), an edit link's `key` (`right=write`) stands in for
    /// a token on that list.
    /// - Throws: 401 without a token (or key) or with an unknown one; 403 for a key that is not an
    ///   edit link of `list`, or has expired.
    package func writer(_ request: Request, list: String? = nil) throws -> Rights {
        if policy.isOpen { return .all }
        let token = try bearerToken(request)
        if token == nil, let list, let key = request.query("key") { return try policy.linkWriter(key: key, list: list) }
        return try policy.writer(token: token)
    }

    /// Throws 403 unless `rights` include `write` on list `id`.
    package func requireWrite(_ rights: Rights, on id: String) throws {
        try policy.requireWrite(rights, on: id)
    }

    /// Checks that the request may read list `id`; returns the view link key that allowed it
    /// (to carry on in the links of the answer), or nil.
    /// - Throws: 401 with no credential or an unknown token, 403 without the right or for a
    ///   view link that is expired, altered or for another list.
    @discardableResult
    package func requireRead(_ request: Request, list id: String) throws -> String? {
        guard policy.isPrivate else { return nil }
        return try policy.requireRead(token: bearerToken(request), key: request.query("key"), list: id)
    }

    /// Whether the page answered to `request` offers editing list `id`: on a server without
    /// tokens (writes are open), or to a reader who opened a valid edit link of that list.
    /// Never by trying a write: the page says so (`data-editable`) and the client believes it.
    package func mayEditPage(_ request: Request, list id: String) -> Bool {
        if policy.isOpen { return true }
        guard let key = request.query("key") else { return false }
        return (try? policy.linkWriter(key: key, list: id)) != nil
    }

    /// Which lists the request may see in the indexes (`/`, `GET /lists`).
    /// - Throws: 401 when `--private` and there is no known bearer token.
    package func readableLists(_ request: Request) throws -> @Sendable (String) -> Bool {
        guard policy.isPrivate else { return { _ in true } }
        return try policy.readableLists(token: bearerToken(request))
    }

    /// Throws unless the request may see server internals (`/metrics`): always when public;
    /// with `--private`, 401 without a known token and 403 without `admin`.
    package func requireAdmin(_ request: Request) throws {
        guard policy.isPrivate else { return }
        try policy.requireAdmin(token: bearerToken(request))
    }

    /// The token of the request's `Authorization: Bearer` header; nil without the header.
    /// - Throws: 401 for another scheme.
    func bearerToken(_ request: Request) throws -> Substring? {
        guard let header = request.headers["Authorization"] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw AccessDenial.invalidToken }
        return parts[1].drop { $0 == " " }
    }
}

extension AccessDenial: HTTPResponseError {
    package static let realm = "Bearer realm=\"list-server\""

    /// 401 for a missing or unknown credential, 403 for a known one without the right.
    package var status: HTTPStatus {
        switch self {
        case .missingToken, .invalidToken: .unauthorized
        case .forbidden, .viewLinkExpired, .viewLinkInvalid, .readOnlyLink: .forbidden
        }
    }

    package var problemDetail: String? {
        switch self {
        case .missingToken: "This needs an Authorization: Bearer token."
        case .invalidToken: "The bearer token is not one this server accepts."
        case .forbidden(let what, _): "The bearer token \(what)."
        case .viewLinkExpired: "This view link has expired; ask for a new one."
        case .viewLinkInvalid(let id): "This view link is not valid for list \"\(id)\"."
        case .readOnlyLink(let id): "This view link only reads list \"\(id)\"; changing it needs an edit link or a token."
        }
    }

    package var responseHeaders: HTTPHeaders {
        switch self {
        case .missingToken: ["WWW-Authenticate": Self.realm]
        case .invalidToken: ["WWW-Authenticate": Self.realm + ", error=\"invalid_token\""]
        case .forbidden(_, let scope): ["WWW-Authenticate": Self.realm + ", error=\"insufficient_scope\", scope=\"\(scope)\""]
        case .viewLinkExpired, .viewLinkInvalid, .readOnlyLink: HTTPHeaders()
        }
    }
}

extension Authorization {
    /// The `Cache-Control` of a read's answer: `private, no-cache` when the answer needed a
    /// credential (`--private`: a token or a view link) or was fetched with a view link's `key`,
    /// so that no shared cache stores it; else `no-cache` (any cache may store it, and revalidates
    /// it every time: cheap with the `ETag`).
    package func cacheControl(_ request: Request) -> String {
        policy.isPrivate || request.query("key") != nil ? "private, no-cache" : "no-cache"
    }
}
