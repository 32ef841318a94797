import Synchronization

extension PreparedResponse {
    /// Which form of a prepared answer a request gets: its content-coding and CORS headers.
    struct VariantKey: Hashable, Sendable {
        var gzip: Bool
        /// The allowed origin the answer names, if any.
        var origin: String?
        /// Whether `Vary: Origin` is added (CORS is configured).
        var varyOrigin: Bool
    }

    /// The variants made so far, and the compressed bytes they share.
    struct Variants: Sendable {
        var gzipBytes: [UInt8]?
        var made: [VariantKey: PreparedResponse] = [:]
    }

    /// This answer as sent to one request: gzip-compressed when `gzip` is asked and the answer is
    /// `compressible`, with the CORS headers of `cors` for `origin`. Each variant (and the
    /// compressed bytes) is made once and kept with this answer, so a cached answer is compressed
    /// once however many clients ask; there are at most 2 x (configured origins + 1) of them.
    /// Returns `self` when nothing is to change.
    /// - Throws: `MHDError` if libmicrohttpd refuses a header.
    func variant(gzip: Bool, cors: CORSPolicy, origin: String?) throws -> PreparedResponse {
        let key = VariantKey(gzip: gzip && compressible, origin: cors.isEnabled ? origin : nil, varyOrigin: cors.isEnabled)
        guard key.gzip || key.varyOrigin else { return self }
        if let made = variants.withLock({ $0.made[key] }) { return made }
        return try variants.withLock { variants in
            if let made = variants.made[key] { return made }
            var headers = self.headers
            var body = bytes
            if key.gzip {
                let compressed = variants.gzipBytes ?? Gzip.compress(bytes)
                variants.gzipBytes = compressed
                body = compressed
                headers["Content-Encoding"] = "gzip"
                if let etag = headers["ETag"] { headers["ETag"] = EntityTag.gzip(etag) }
            }
            cors.apply(origin: key.origin, to: &headers)
            let made = try PreparedResponse(Response(status: status, headers: headers, body: body))
            variants.made[key] = made
            return made
        }
    }

    /// The 304 of this answer (its `ETag`, `Vary`, `Cache-Control` and CORS fields, the 200's
    /// length, no body), made once and kept, like the variants.
    /// - Throws: `MHDError` if libmicrohttpd refuses a header.
    func notModifiedForm() throws -> PreparedResponse {
        if let made = notModified.withLock({ $0 }) { return made }
        let made = try PreparedResponse(notModifiedOf: self)
        return notModified.withLock { kept in
            if let kept { return kept }
            kept = made
            return made
        }
    }
}
