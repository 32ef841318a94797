import Crypto

/// The tokens the server accepts and the rights of each, held only as keyed digests.
///
/// A presented token is looked up by computing its HMAC-SHA256 under a key made at start (so
/// the table holds no token and its digests mean nothing outside this process) and comparing
/// that with every entry's digest in constant time, without stopping at a match: how long a
/// lookup takes depends on the number of tokens and the presented token's own length only,
/// never on how much of it is right.
struct TokenTable: Sendable {
    private struct Entry: Sendable {
        let digest: HashedAuthenticationCode<SHA256>
        let rights: Rights
    }

    private let key: SymmetricKey
    private let entries: [Entry]

    /// - Parameters:
    ///   - master: `--token`: every right.
    ///   - file: the entries of `--tokens`.
    ///   - key: the digest key; shared across reloads so that old and new tables agree.
    init(master: String?, file: [TokenFile.Entry], key: SymmetricKey) {
        self.key = key
        var entries = file.map { Entry(digest: HMAC<SHA256>.authenticationCode(for: Array($0.token.utf8), using: key), rights: $0.rights) }
        if let master {
            entries.append(Entry(digest: HMAC<SHA256>.authenticationCode(for: Array(master.utf8), using: key), rights: .all))
        }
        self.entries = entries
    }

    /// How many tokens the table holds.
    var count: Int { entries.count }

    /// The rights of `token`, or nil when it is not one of the table's.
    func rights(of token: some Sequence<UInt8>) -> Rights? {
        let digest = HMAC<SHA256>.authenticationCode(for: Array(token), using: key)
        var found: Rights?
        for entry in entries where entry.digest == digest {  // `==` on MACs is constant-time
            found = entry.rights
        }
        return found
    }
}
