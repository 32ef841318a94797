/// Why the registry refused a write (the list is unchanged), or has no list to read.
package enum RegistryError: Error, Equatable {
    /// No list with this id (HTTP 404).
    case notFound(id: String)
    /// The list existed and was deleted, at `version`, and was not created again (HTTP 410).
    case gone(id: String, version: Int)
    /// `If-Match` or `If-None-Match` does not hold (HTTP 412); the message says why.
    case preconditionFailed(String)
    /// Creating the list would pass the server's limit (HTTP 507).
    case tooManyLists(limit: Int)
    /// Other instances kept committing to the list first, `ListRegistry.maxConflicts` times
    /// (HTTP 503 with `Retry-After`).
    case contended(id: String)
    /// The write waited `seconds` (`--write-timeout`) for the list and gave up: another writer
    /// of the list held it, here or in the store (a PostgreSQL lock: the list's, or a table's),
    /// HTTP 503 with `Retry-After`. `cause` says what was waited for, for the log.
    case busy(id: String, seconds: Double, cause: String)
    /// `waiting` writes already waited for the list (`ServerDefaults.maxQueuedWritersPerList`):
    /// the write did not queue (HTTP 503 with `Retry-After`).
    case queueFull(id: String, waiting: Int)
}
