/// Why the registry refused a write; the list is unchanged.
enum RegistryError: Error, Equatable {
    /// No list with this id (HTTP 404).
    case notFound(id: String)
    /// `If-Match` named another version (HTTP 412); `current` is nil when the list does not exist.
    case versionMismatch(expected: Int, current: Int?)
    /// Creating the list would pass the server's limit (HTTP 507).
    case tooManyLists(limit: Int)
}
