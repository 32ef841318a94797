import HTTPServer
import ListService

extension ListID {
    /// `raw` when it is a valid list id.
    /// - Throws: 400 naming the rule otherwise.
    package static func validated(_ raw: String) throws -> String {
        guard isValid(raw) else { throw HTTPError(.badRequest, rule) }
        return raw
    }
}
