import HTTPServer
import ListService

/// Content negotiation and request body types.
package enum Negotiation {
    /// How much the client's `Accept` header wants `mediaType` (its q value; 0 when not at all).
    /// Exact types beat `type/*`, which beats `*/*`. A missing header accepts everything (q 1).
    package static func quality(of mediaType: String, in request: Request) -> Double {
        guard let accept = request.headers["Accept"], !accept.trimmingSpaces.isEmpty else { return 1 }
        let wantedType = mediaType.split(separator: "/").first.map(String.init) ?? mediaType
        var best: (specificity: Int, q: Double) = (-1, 0)
        for range in accept.split(separator: ",") {
            let parameters = range.split(separator: ";").map { String($0).trimmingSpaces }
            guard let name = parameters.first?.lowercased() else { continue }
            var q = 1.0
            for parameter in parameters.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                q = Double(parameter.dropFirst(2)) ?? 0
            }
            let specificity: Int
            if name == mediaType {
                specificity = 2
            } else if name == "\(wantedType)/*" {
                specificity = 1
            } else if name == "*/*" {
                specificity = 0
            } else {
                continue
            }
            if specificity > best.specificity { best = (specificity, q) }
        }
        return max(best.q, 0)
    }

    /// Whether the client asked for JSON explicitly, at least as much as for HTML (API.md:
    /// `GET /lists/{id}` is HTML unless `Accept` names `application/json`).
    package static func explicitlyWantsJSON(_ request: Request) -> Bool {
        guard let accept = request.headers["Accept"]?.lowercased(), accept.contains("application/json") else { return false }
        return quality(of: "application/json", in: request) >= quality(of: "text/html", in: request)
            && quality(of: "application/json", in: request) > 0
    }

    /// Whether the client prefers HTML to JSON (for endpoints that default to JSON).
    package static func prefersHTML(_ request: Request) -> Bool {
        guard let accept = request.headers["Accept"]?.lowercased(), accept.contains("text/html") else { return false }
        return quality(of: "text/html", in: request) > quality(of: "application/json", in: request)
    }

    /// Throws 415 unless the body's `Content-Type` is `mediaType` (parameters such as charset allowed).
    package static func requireBody(of mediaType: String, _ request: Request) throws {
        let given = request.headers["Content-Type"]?.split(separator: ";").first.map { String($0).trimmingSpaces.lowercased() }
        guard given == mediaType else {
            let acceptPatch: HTTPHeaders = mediaType.hasSuffix("patch+json") ? ["Accept-Patch": mediaType] : [:]
            throw HTTPError(
                .unsupportedMediaType,
                "This endpoint takes Content-Type: \(mediaType)\(given.map { ", not \"\($0)\"" } ?? "").",
                headers: acceptPatch)
        }
    }
}
