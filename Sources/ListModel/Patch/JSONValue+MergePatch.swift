extension JSONValue {
    /// This value with an RFC 7396 merge patch applied: an object patch merges member by member
    /// (a `null` member removes that member, an object member merges recursively, any other
    /// value replaces); a patch that is not an object replaces the whole value.
    public func mergePatched(with patch: JSONValue) -> JSONValue {
        guard case .object(let members) = patch else { return patch }
        var target: JSONObject
        if case .object(let object) = self { target = object } else { target = JSONObject() }
        for (key, value) in members {
            if case .null = value {
                target.removeValue(forKey: key)
            } else {
                target[key] = (target[key] ?? .null).mergePatched(with: value)
            }
        }
        return .object(target)
    }
}
