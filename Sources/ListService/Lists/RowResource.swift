import ListModel

/// A row endpoint's `If-Match` / `If-None-Match` does not hold for the row's version (HTTP 412):
/// `current` is the row as it is now (`IndexedList.rowResource`), nil when it is gone.
package struct RowPreconditionFailed: Error, Sendable {
    package let message: String
    package let current: JSONValue?
}

extension IndexedList {
    /// The row with this key as `GET /lists/{id}/rows/{row}` answers it: `key`, `section`, then
    /// the row's canonical members (`cells`, `href`, `style` when set); nil when there is none.
    package func rowResource(_ key: String) -> JSONValue? {
        guard let position = position(ofRow: key),
            case .object(let row)? = try? JSONValue(parsing: row(atPosition: position).canonicalJSONBytes(columns: document.columns))
        else { return nil }
        var members: [(String, JSONValue)] = [("key", .string(key)), ("section", .string(sectionKey(atPosition: position)))]
        for (name, value) in row where name != "key" { members.append((name, value)) }
        return .object(JSONObject(members))
    }

    /// Checks a row endpoint's precondition against the version of the row with this key (run
    /// inside the list's write, so atomically with it).
    /// - Throws: `RowPreconditionFailed` with the row as it is now.
    package func requireRow(_ key: String, _ precondition: WritePrecondition) throws {
        guard precondition != .none,
            let message = precondition.failure(version: version(ofRow: key), subject: "row \(quotedRowKey(key))")
        else { return }
        throw RowPreconditionFailed(message: message, current: rowResource(key))
    }
}

/// A row key in a message: JSON-quoted.
func quotedRowKey(_ key: String) -> String { JSONValue.string(key).serializedText }
