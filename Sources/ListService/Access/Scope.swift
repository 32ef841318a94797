/// One right a token holds: `read:PATTERN`, `write:PATTERN` (which implies `read` on the same
/// lists) or `admin` (the server itself: `/metrics`; it grants nothing on lists).
package enum Scope: Sendable, Equatable, CustomStringConvertible {
    case read(ListPattern)
    case write(ListPattern)
    case admin

    /// Parses one scope as written in a tokens file; nil when it is not one.
    package init?(_ raw: String) {
        if raw == "admin" {
            self = .admin
            return
        }
        guard let colon = raw.firstIndex(of: ":") else { return nil }
        guard let pattern = ListPattern(String(raw[raw.index(after: colon)...])) else { return nil }
        switch raw[..<colon] {
        case "read": self = .read(pattern)
        case "write": self = .write(pattern)
        default: return nil
        }
    }

    package var description: String {
        switch self {
        case .read(let pattern): "read:\(pattern)"
        case .write(let pattern): "write:\(pattern)"
        case .admin: "admin"
        }
    }
}

/// What a caller may do: the union of its scopes.
package struct Rights: Sendable, Equatable {
    package var scopes: [Scope]

    /// Every right: what `--token` grants (and every caller when no token is configured).
    package static let all = Rights(scopes: [.write(ListPattern("*")!), .admin])
    package static let none = Rights(scopes: [])

    package func mayRead(_ id: String) -> Bool {
        scopes.contains { scope in
            switch scope {
            case .read(let pattern), .write(let pattern): pattern.matches(id)
            case .admin: false
            }
        }
    }

    package func mayWrite(_ id: String) -> Bool {
        scopes.contains { scope in
            if case .write(let pattern) = scope { return pattern.matches(id) }
            return false
        }
    }

    package var isAdmin: Bool { scopes.contains(.admin) }
}
