import HTTPServer

/// Bearer-token protection of writes (`--token` or `LIST_SERVER_TOKEN`); reads are public.
struct Authorization: Sendable {
    /// The token writes must present; nil leaves writes open (the server allows that on loopback only).
    let token: String?

    /// Throws 401 unless the request carries `Authorization: Bearer <token>` (or no token is set).
    func requireWriter(_ request: Request) throws {
        guard let token else { return }
        let challenge: HTTPHeaders = ["WWW-Authenticate": "Bearer realm=\"list-server\""]
        guard let header = request.headers["Authorization"] else {
            throw HTTPError(.unauthorized, "Writes need an Authorization: Bearer token.", headers: challenge)
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer",
              Self.constantTimeEqual(Array(parts[1].utf8), Array(token.utf8)) else {
            var headers = challenge
            headers["WWW-Authenticate"] = "Bearer realm=\"list-server\", error=\"invalid_token\""
            throw HTTPError(.unauthorized, "The bearer token is not the one this server accepts.", headers: headers)
        }
    }

    /// Compares without an early exit, so timing does not reveal how much of a guess was right.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }
}
