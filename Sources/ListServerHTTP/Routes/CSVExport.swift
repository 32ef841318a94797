import Dispatch
import HTTPServer
import ListModel
import ListService
import ServerSupport

#if canImport(Glibc)
import Glibc
#endif

/// `GET /lists/{id}?format=csv` (or `Accept: text/csv`): the whole view as RFC 4180 CSV
/// (API.md section 9), streamed: rows are written a batch at a time from the snapshot, and the
/// writer waits while the client has more than `maxUnsent` bytes to read, so a million-row
/// export is never held in memory twice.
package enum CSVExport {
    /// Bytes a batch holds before it is written.
    static let batchBytes = 64 << 10
    /// Unsent bytes beyond which the writer waits for the client.
    static let maxUnsent = 1 << 20
    /// How long the writer waits for a client that reads nothing before it gives up.
    static let stalledSeconds = 60.0

    /// Whether the request asks for CSV: `format=csv`, or an `Accept` that prefers `text/csv`.
    /// - Throws: 400 for a `format` other than `csv`.
    package static func isAsked(_ request: Request) throws -> Bool {
        if let format = request.query("format") {
            guard format == "csv" else { throw HTTPError(.badRequest, "format must be csv (or leave it out).") }
            return true
        }
        guard let accept = request.headers["Accept"]?.lowercased(), accept.contains("text/csv") else { return false }
        return Negotiation.quality(of: "text/csv", in: request) > Negotiation.quality(of: "text/html", in: request)
            && Negotiation.quality(of: "text/csv", in: request) > Negotiation.quality(of: "application/json", in: request)
    }

    /// The streamed export of `snapshot` through `query` (nil: the list as it is), with the
    /// `Cache-Control` reads of this request get (`private` when it needed a credential).
    package static func response(_ snapshot: ListSnapshot, query: ListQuery?, cacheControl: String) throws -> Response {
        let variant = "csv" + (query.map { "-" + ViewRequest.etagVariant($0) } ?? "")
        let headers: HTTPHeaders = [
            "Content-Type": "text/csv; charset=utf-8; header=present",
            "Content-Disposition": "attachment; filename=\"\(snapshot.id).csv\"",
            "ETag": Conditional.etag(snapshot.version, variant: variant),
            "Vary": "Accept",
            "Cache-Control": cacheControl,
            "X-Content-Type-Options": "nosniff",
        ]
        let export = { @Sendable (view: ListView?) -> Response in
            .stream(headers: headers) { stream in
                DispatchQueue.global(qos: .utility).async { write(snapshot, view, to: stream) }
            }
        }
        guard let query else { return export(nil) }
        // A view not built yet on a large list is built off the connection's thread, in a turn.
        if ViewRequest.readsCold(snapshot, query) {
            return ViewRequest.inTurn(snapshot, query) { export(try ViewRequest.view(snapshot, query)) }
        }
        return export(try ViewRequest.view(snapshot, query))
    }

    /// Writes the header line and every row of the view (or of the list), then ends the stream.
    static func write(_ snapshot: ListSnapshot, _ view: ListView?, to stream: ResponseStream) {
        let document = snapshot.document
        var out = CSVWriter(columns: document.columns)
        out.headerLine()
        var open = true
        func flush(force: Bool) {
            guard open, force || out.bytes.count >= batchBytes else { return }
            open = send(out.take(), to: stream)
        }
        if let view {
            for section in view.sections where open {
                let value = document.sections[section.sectionIndex]
                for index in section.rows where open {
                    out.line(section: value.key, row: value.rows[index])
                    flush(force: false)
                }
            }
        } else {
            for section in document.sections where open {
                for row in section.rows where open {
                    out.line(section: section.key, row: row)
                    flush(force: false)
                }
            }
        }
        flush(force: true)
        if open { stream.finish() }
    }

    /// Writes `bytes` once the client has read enough of what came before; false when the
    /// stream ended or the client read nothing for `stalledSeconds` (the stream is cancelled).
    private static func send(_ bytes: [UInt8], to stream: ResponseStream) -> Bool {
        let deadline = monotonicNanoseconds() + UInt64(stalledSeconds * 1e9)
        while stream.isOpen && stream.unsentByteCount > maxUnsent {
            guard monotonicNanoseconds() < deadline else {
                stream.cancel()
                return false
            }
            usleep(2_000)
        }
        return stream.write(bytes)
    }
}

/// RFC 4180 lines, CRLF-terminated, in UTF-8.
struct CSVWriter {
    let columns: [Column]
    private(set) var bytes: [UInt8] = []

    init(columns: [Column]) {
        self.columns = columns
        bytes.reserveCapacity(CSVExport.batchBytes + 4096)
    }

    /// The bytes written so far, leaving the writer empty.
    mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// `section`, then each column's title (its key when the title is empty).
    mutating func headerLine() {
        field("section", guardFormula: false)
        for column in columns {
            bytes.append(UInt8(ascii: ","))
            field(column.title.isEmpty ? column.key : column.title, guardFormula: true)
        }
        bytes += [0x0D, 0x0A]
    }

    /// The row's section key, then one field per column: a number as its JSON number, a link's
    /// `href`, an image's `src`, a text cell's text (with a leading `'` when it could start a
    /// formula), empty for an empty cell.
    mutating func line(section: String, row: Row) {
        field(section, guardFormula: true)
        for column in columns {
            bytes.append(UInt8(ascii: ","))
            switch row.cells[column.key] {
            case .text(let text): field(text, guardFormula: true)
            case .number(let number): JSONValue.number(number).serialize(into: &bytes)
            case .link(_, let href): field(href, guardFormula: true)
            case .image(let src, _, _, _): field(src, guardFormula: true)
            case nil: break
            }
        }
        bytes += [0x0D, 0x0A]
    }

    /// One field, quoted when it holds a comma, a quote, CR or LF (quotes doubled). With
    /// `guardFormula`, a field starting with `=`, `+`, `-`, `@`, a tab or a CR gets a leading `'`
    /// so that spreadsheets do not run it.
    private mutating func field(_ text: String, guardFormula: Bool) {
        let utf8 = text.utf8
        let formula = guardFormula && utf8.first.map { "=+-@\t\r".utf8.contains($0) } == true
        let quoted = utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A }
        if quoted { bytes.append(UInt8(ascii: "\"")) }
        if formula { bytes.append(UInt8(ascii: "'")) }
        for byte in utf8 {
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            bytes.append(byte)
        }
        if quoted { bytes.append(UInt8(ascii: "\"")) }
    }
}
