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

    /// Whether `segments` match this pattern (checked without building the parameters).
    func matches(_ segments: [String]) -> Bool {
        // Only a pattern ending in `{name...}` matches more segments than it has components.
        if case .rest = components.last {
            guard segments.count >= components.count else { return false }
        } else if segments.count != components.count {
            return false
        }
        for (index, component) in components.enumerated() {
            switch component {
            case .literal(let text): if segments[index] != text { return false }
            case .parameter: if segments[index].isEmpty { return false }
            case .rest: return true
            }
        }
        return true
    }

    /// The value `segments` (which match this pattern) give the parameter `name`, or nil when the
    /// pattern has no such parameter.
    func value(of name: String, in segments: [String]) -> String? {
        for (index, component) in components.enumerated() {
            switch component {
            case .literal: continue
            case .parameter(let parameter): if parameter == name { return segments[index] }
            case .rest(let parameter): if parameter == name { return segments[index...].joined(separator: "/") }
            }
        }
        return nil
    }

    /// The captured parameters when `segments` match this pattern, or nil.
    func match(_ segments: [String]) -> [String: String]? {
        guard matches(segments) else { return nil }
        var parameters: [String: String] = [:]
        for component in components {
            switch component {
            case .literal: continue
            case .parameter(let name), .rest(let name): parameters[name] = value(of: name, in: segments)
            }
        }
        return parameters
    }
}
