/// The version `list-server --version` prints; raise it with each release.
enum ListServerVersion {
    static let current = "0.5.0"
}
