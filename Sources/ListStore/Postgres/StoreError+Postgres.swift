extension StoreError {
    /// Classifies a PostgreSQL error by its SQLSTATE: no space (53100) is `.full`; a lock not
    /// obtained within `lock_timeout` (55P03 lock_not_available) or a statement cancelled
    /// (57014 query_canceled: `statement_timeout`, or `pg_cancel_backend`) is `.busy`; a lost or
    /// refused connection, a server shutting down or starting, a serialization failure or
    /// deadlock, or a read-only server (a standby) is `.unavailable` (worth retrying later);
    /// anything else is `.failed`.
    init(postgres state: String?, connectionBroken: Bool, _ message: String) {
        let kind: Kind
        switch state {
        case "53100"?: kind = .full
        case _ where connectionBroken: kind = .unavailable
        case "55P03"?, "57014"?: kind = .busy
        case let state?
        where state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57")
            || state.hasPrefix("40") || state == "25006":
            kind = .unavailable
        default: kind = .failed
        }
        self.init(kind, message)
    }
}
