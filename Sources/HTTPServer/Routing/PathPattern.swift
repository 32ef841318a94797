/// A route pattern such as `/lists/{id}/rows/{row}` or `/assets/{path...}`.
///
/// Literal segments match a decoded segment exactly; `{name}` captures one decoded segment
/// (which may contain "/" if it was sent as `%2F`); a final `{name...}` captures one or more
/// remaining segments, joined with "/".
struct PathPattern: Sendable, CustomStringConvertible {
    enum Component: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case rest(String)
    }

    let components: [Component]
    let description: String

    init(_ pattern: String) {
        precondition(pattern.hasPrefix("/"), "A route pattern starts with \"/\": \(pattern)")
        description = pattern
        let parts = pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var components: [Component] = []
        for (index, part) in parts.enumerated() where !(parts.count == 1 && part.isEmpty) {
            if part.hasPrefix("{") && part.hasSuffix("}") {
                let name = part.dropFirst().dropLast()
                if name.hasSuffix("...") {
                    precondition(index == parts.count - 1, "{name...} must be the last segment: \(pattern)")
                    components.append(.rest(String(name.dropLast(3))))
                } else {
                    components.append(.parameter(String(name)))
                }
            } else {
                components.append(.literal(String(part)))
            }
        }
        self.components = components
    }

    /// The captured parameters when `segments` match this pattern, or nil.
    func match(_ segments: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, component) in components.enumerated() {
            switch component {
            case .literal(let text):
                guard index < segments.count, segments[index] == text else { return nil }
            case .parameter(let name):
                guard index < segments.count, !segments[index].isEmpty else { return nil }
                parameters[name] = segments[index]
            case .rest(let name):
                guard index < segments.count else { return nil }
                parameters[name] = segments[index...].joined(separator: "/")
                return parameters
            }
        }
        return segments.count == components.count ? parameters : nil
    }
}
