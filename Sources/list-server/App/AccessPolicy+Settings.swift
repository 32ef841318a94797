import ArgumentParser
import HTTPServer
import ListService
import ListStore
import ServerSupport

extension AccessPolicy {
    /// The name of the store setting that holds the generated view-link secret.
    static let secretSettingName = "view-link-secret"

    /// Loads `--tokens` (before anything else is opened, so a bad file is reported first).
    /// - Throws: `ExitCode(2)` after logging why, for a tokens file that cannot be used.
    static func loadTokens(settings: Settings) throws -> [TokenFile.Entry] {
        guard let path = settings.tokensFile else { return [] }
        do {
            return try TokenFile.load(path: path)
        } catch {
            Log.error("refusing to start: tokens file \(path): \(error)")
            throw ExitCode(2)
        }
    }

    /// Builds the access rules `settings` ask for from the loaded `entries`, taking the view-link
    /// secret from `--secret`/`LIST_SERVER_SECRET`, else from the store (made once, 32 random
    /// bytes, so every instance sharing the store signs alike).
    static func starting(settings: Settings, tokens entries: [TokenFile.Entry], store: any Store) throws -> AccessPolicy {
        let secret: [UInt8]
        if let given = settings.secret {
            secret = Array(given.utf8)
        } else {
            do {
                secret = try store.setting(secretSettingName, orInsert: { randomSecret() })
            } catch {
                Log.error("cannot read or store the view-link secret in \(store.location): \(error)")
                throw ExitCode(1)
            }
        }
        let policy = AccessPolicy(
            master: settings.token, tokens: entries, tokensPath: settings.tokensFile,
            isPrivate: settings.isPrivate, viewLinkSecret: secret)
        Log.info(
            "access: \(settings.isPrivate ? "private (reads need a token or a view link)" : "public reads"), "
                + (policy.isOpen ? "writes open to all (no token set)" : "\(policy.tokenCount) tokens")
                + (settings.secret == nil ? ", view links signed with the store's secret" : ", view links signed with --secret"))
        return policy
    }

    /// Why `settings` must not start, or nil. Writes with no token are only for loopback (anyone
    /// who can reach the server could change every list); `--tokens` counts as a token even
    /// when the file holds none (then nobody can write). `--private` needs a token, since
    /// otherwise nobody could read. A `--secret` shorter than 32 bytes would be guessable.
    static func refusal(settings: Settings, isLoopback: Bool) -> String? {
        let hasTokens = settings.token != nil || settings.tokensFile != nil
        if !isLoopback && !hasTokens {
            return "\(settings.configuration.host) is not a loopback address and no token is set, so anyone who can "
                + "reach it could change every list. Pass --token or --tokens (or set LIST_SERVER_TOKEN)."
        }
        if settings.isPrivate && !hasTokens {
            return "--private needs --token or --tokens: without a token nobody could read a list."
        }
        if let secret = settings.secret, secret.utf8.count < 32 {
            return "the view-link secret (--secret or LIST_SERVER_SECRET) must be at least 32 bytes long."
        }
        return nil
    }
}
