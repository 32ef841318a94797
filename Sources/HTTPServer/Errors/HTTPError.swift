/// An error a handler throws to answer with a status and a human message, when no error type
/// of its own fits (see `HTTPResponseError`).
///
/// ```swift
/// throw HTTPError(.badRequest, "limit must be a whole number from 1 to 500.")
/// ```
public struct HTTPError: HTTPResponseError, Sendable, CustomStringConvertible {
    public var status: HTTPStatus
    /// A message for the person reading the response: what was wrong with their request.
    public var detail: String?
    /// A short summary of the problem type; the status's reason phrase by default.
    public var title: String
    /// A URI naming the problem type; "about:blank" means "just the status".
    public var type: String
    /// Extra header fields for the answer (e.g. `Allow` for 405, `WWW-Authenticate` for 401).
    public var headers: HTTPHeaders

    public init(
        _ status: HTTPStatus, _ detail: String? = nil, title: String? = nil,
        type: String = "about:blank", headers: HTTPHeaders = HTTPHeaders()
    ) {
        self.status = status
        self.detail = detail
        self.title = title ?? status.reasonPhrase
        self.type = type
        self.headers = headers
    }

    public var problemDetail: String? { detail }
    public var problemTitle: String { title }
    public var problemType: String { type }
    public var responseHeaders: HTTPHeaders { headers }

    public var description: String {
        "\(status.code) \(title)" + (detail.map { ": \($0)" } ?? "")
    }

    /// The detail of a 500 whose cause the server keeps to itself (in its log).
    public static let internalFailureDetail = "The server failed to answer this request; the cause is in its log."

    /// The answer for an error the server keeps to itself: a 500 saying the cause is in the log.
    static let internalFailure = HTTPError(.internalServerError, internalFailureDetail)
}

/// The few bits of JSON writing problem documents need (this target does not depend on ListModel).
enum ProblemJSON {
    /// Appends `text` as a JSON string literal, escaping quotes, backslashes and control characters.
    static func appendString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{0}"..."\u{1F}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
