import CLibPQ
import ServerSupport

/// A libpq connection URI (`postgresql://…` or `postgres://…`) with the time limits every
/// connection of the store gets, so that no call can hang while PostgreSQL is unreachable.
struct PostgresAddress: Sendable {
    /// The URI as given (it may hold a password: never log it; log `redacted`).
    let uri: String
    /// `postgresql://user@host:port/db`, without password or other parameters.
    let redacted: String
    /// The session's `lock_timeout`: the longest any statement waits for a lock (a write sets a
    /// shorter one per transaction, the time left before its deadline). The write timeout.
    var lockTimeoutMilliseconds = Int(ServerDefaults.writeTimeoutSeconds * 1000)

    /// Whether `location` names a PostgreSQL database rather than an SQLite file.
    static func accepts(_ location: String) -> Bool {
        location.hasPrefix("postgresql://") || location.hasPrefix("postgres://")
    }

    /// Throws `.failed` when libpq cannot parse `uri` (the message never repeats the URI).
    init(_ uri: String) throws {
        self.uri = uri
        var options: [String: String] = [:]
        var error: UnsafeMutablePointer<CChar>?
        guard let parsed = PQconninfoParse(uri, &error) else {
            let detail = error.map { String(cString: $0) } ?? "out of memory"
            PQfreemem(error)
            throw StoreError(.failed, "cannot parse the PostgreSQL URL: \(detail.split(separator: "\n").first ?? "")")
        }
        defer { PQconninfoFree(parsed) }
        var option = parsed
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { options[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        let user = options["user"].map { "\($0)@" } ?? ""
        let host = options["host"] ?? options["hostaddr"] ?? "localhost"
        let port = options["port"].map { ":\($0)" } ?? ""
        redacted = "postgresql://\(user)\(host)\(port)/\(options["dbname"] ?? "")"
    }

    /// Defaults the URI may override (it comes after them), then what the store relies on.
    /// Timeouts: connecting 3 s; a peer silent for 10 s (keepalives, unacknowledged data) drops
    /// the connection; a statement is cancelled after 30 s; a lock waited for longer than the
    /// write timeout (`lockTimeoutMilliseconds`, 10 s) is given up; a transaction left idle after 15 s.
    var connectionParameters: [(String, String)] {
        [
            ("connect_timeout", "3"),
            ("keepalives", "1"),
            ("keepalives_idle", "5"),
            ("keepalives_interval", "2"),
            ("keepalives_count", "3"),
            ("tcp_user_timeout", "10000"),
            (
                "options",
                "-c statement_timeout=30000 -c idle_in_transaction_session_timeout=15000"
                    + " -c lock_timeout=\(max(1, lockTimeoutMilliseconds))"
            ),
            ("application_name", "list-server"),
            ("dbname", uri),
            ("client_encoding", "UTF8"),
        ]
    }
}
