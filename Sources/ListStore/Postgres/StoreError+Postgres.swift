extension StoreError {
    /// Classifies a PostgreSQL error by its SQLSTATE: no space (53100) is `.full`; a lost or
    /// refused connection, a server shutting down or starting, a cancelled or timed-out
    /// statement, a lock or serialization failure, or a read-only server (a standby) is
    /// `.unavailable` (worth retrying later); anything else is `.failed`.
    init(postgres state: String?, connectionBroken: Bool, _ message: String) {
        let kind: Kind
        switch state {
        case "53100"?: kind = .full
        case _ where connectionBroken: kind = .unavailable
        case let state? where state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57")
            || state.hasPrefix("40") || state == "55P03" || state == "25006":
            kind = .unavailable
        default: kind = .failed
        }
        self.init(kind, message)
    }
}
