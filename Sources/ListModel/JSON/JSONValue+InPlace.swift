extension JSONValue {
    /// Moves the object out of this value, leaving `null`, so the caller can edit it without
    /// copying its members; `nil` (and nothing changed) when this is not an object.
    ///
    /// Binding the payload in a `switch` would keep a second reference alive for the whole
    /// `switch` body and make every edit copy the container.
    mutating func takeObject() -> JSONObject? {
        guard case .object(let object) = self else { return nil }
        self = .null
        return object
    }

    /// Moves the array out of this value, leaving `null` (see ``takeObject()``).
    mutating func takeArray() -> [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        self = .null
        return elements
    }
}
