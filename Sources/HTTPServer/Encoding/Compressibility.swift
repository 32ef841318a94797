/// Which answers are worth compressing.
enum Compressibility {
    /// Smaller bodies are sent as they are: gzip's 18 bytes of framing eat most of the saving.
    static let minimumBytes = 256

    /// Text-like media types: HTML, CSS, JavaScript, JSON (and `+json`), SVG, plain text.
    /// Images other than SVG and anything already compressed are left alone.
    static func isCompressible(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";").first.map { $0.trimmingOWS().lowercased() } ?? ""
        if type.hasPrefix("text/") && type != "text/event-stream" { return true }
        return type == "application/json" || type.hasSuffix("+json") || type == "application/javascript"
            || type == "image/svg+xml" || type == "application/xml"
    }

    /// Whether a complete answer of this status, headers and size may be sent gzip-compressed:
    /// a 200 with a compressible type, no coding of its own, and at least `minimumBytes`.
    static func isEligible(status: HTTPStatus, headers: HTTPHeaders, size: Int) -> Bool {
        status == .ok && size >= minimumBytes && headers["Content-Encoding"] == nil
            && isCompressible(contentType: headers["Content-Type"])
    }
}
