import Crypto

/// The tokens the server accepts and the rights of each, held only as keyed digests.
///
/// A presented token is looked up by computing its HMAC-SHA256 under a key made at start (so
/// the table holds no token and its digests mean nothing outside this process) and finding
/// that digest in a dictionary. The dictionary hashes digests, not tokens: without the key an
/// attacker cannot choose a token whose digest lands in a given bucket, so how long a lookup
/// takes tells nothing about how much of a token is right; the one candidate found is compared
/// in constant time (`==` on MACs). A lookup costs one HMAC whatever the number of tokens.
package struct TokenTable: Sendable {
    private let key: SymmetricKey
    private let rightsByDigest: [HashedAuthenticationCode<SHA256>: Rights]

    /// - Parameters:
    ///   - master: `--token`: every right.
    ///   - file: the entries of `--tokens`.
    ///   - key: the digest key; shared across reloads so that old and new tables agree.
    package init(master: String?, file: [TokenFile.Entry], key: SymmetricKey) {
        self.key = key
        var rightsByDigest: [HashedAuthenticationCode<SHA256>: Rights] = [:]
        // The file holds each token once (TokenFile refuses repeats); `--token` wins over it.
        for entry in file {
            rightsByDigest[HMAC<SHA256>.authenticationCode(for: Array(entry.token.utf8), using: key)] = entry.rights
        }
        if let master {
            rightsByDigest[HMAC<SHA256>.authenticationCode(for: Array(master.utf8), using: key)] = .all
        }
        self.rightsByDigest = rightsByDigest
    }

    /// How many distinct tokens the table holds.
    package var count: Int { rightsByDigest.count }

    /// The rights of `token`, or nil when it is not one of the table's.
    package func rights(of token: some Sequence<UInt8>) -> Rights? {
        let digest = HMAC<SHA256>.authenticationCode(for: Array(token), using: key)
        guard let index = rightsByDigest.index(forKey: digest) else { return nil }
        let candidate = rightsByDigest[index]
        return candidate.key == digest ? candidate.value : nil  // `==` on MACs is constant-time
    }
}
