import CLibPQ
import Glibc

/// One libpq connection. Not thread-safe: the pool lends it to one caller at a time.
/// Errors come out as `StoreError` (`StoreError(postgres:)` says which kind).
final class PGConnection: @unchecked Sendable {
    let handle: OpaquePointer
    private var prepared: Set<String> = []
    /// Calls that succeeded since the pool lent the connection: when the first call finds the
    /// connection broken, nothing was sent, so the pool may retry on a new one.
    var succeededCalls = 0

    /// Connects, bounded by the address's `connect_timeout`; throws `.unavailable` when PostgreSQL
    /// cannot be reached. The corresponding C function is `PQconnectdbParams`.
    init(_ address: PostgresAddress) throws {
        let parameters = address.connectionParameters
        let keywords = parameters.map { strdup($0.0) } + [nil]
        let values = parameters.map { strdup($0.1) } + [nil]
        defer { (keywords + values).forEach { free($0) } }
        let keywordPointers: [UnsafePointer<CChar>?] = keywords.map { $0.map { UnsafePointer($0) } }
        let valuePointers: [UnsafePointer<CChar>?] = values.map { $0.map { UnsafePointer($0) } }
        let connection = keywordPointers.withUnsafeBufferPointer { keywordPointers in
            valuePointers.withUnsafeBufferPointer { valuePointers in
                PQconnectdbParams(keywordPointers.baseAddress, valuePointers.baseAddress, 1)
            }
        }
        guard let connection else { throw StoreError(.unavailable, "cannot connect to \(address.redacted): out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.lastLine(PQerrorMessage(connection))
            PQfinish(connection)
            throw StoreError(.unavailable, "cannot connect to \(address.redacted): \(message)")
        }
        handle = connection
    }

    deinit { PQfinish(handle) }

    /// The connection is gone (PostgreSQL stopped, the network failed): make a new one.
    var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

    /// Not inside a transaction. The corresponding C function is `PQtransactionStatus`.
    var isIdle: Bool { PQtransactionStatus(handle) == PQTRANS_IDLE }

    /// The server process serving this connection (it names the sender of a notification).
    var backendPID: Int32 { PQbackendPID(handle) }

    /// Runs SQL without parameters or results (one or more statements).
    /// The corresponding C function is `PQexec`.
    @discardableResult
    func execute(_ sql: String) throws -> PGResult {
        try checked(PQexec(handle, sql), doing: sql)
    }

    /// Runs one statement without parameters, not prepared, with results in binary format.
    /// The corresponding C function is `PQexecParams`.
    func query(_ sql: String) throws -> PGResult {
        try checked(PQexecParams(handle, sql, 0, nil, nil, nil, nil, 1), doing: sql)
    }

    /// Runs a prepared statement (prepared on this connection on first use), parameters and
    /// results in binary format. The corresponding C function is `PQexecPrepared`.
    @discardableResult
    func run(_ statement: PGStatement, _ values: [PGValue] = []) throws -> PGResult {
        if !prepared.contains(statement.name) {
            var types = values.map(\.type)
            _ = try checked(PQprepare(handle, statement.name, statement.sql, Int32(values.count), &types), doing: statement.sql)
            prepared.insert(statement.name)
        }
        var buffer: [UInt8] = []
        var offsets: [Int] = []
        var lengths: [Int32] = []
        for value in values {
            offsets.append(buffer.count)
            value.encode(into: &buffer)
            lengths.append(Int32(buffer.count - offsets[offsets.count - 1]))
        }
        buffer.append(0)  // never empty, so the base address exists
        let formats = [Int32](repeating: 1, count: values.count)
        let result = buffer.withUnsafeBytes { base in
            let pointers: [UnsafePointer<CChar>?] = offsets.map { base.baseAddress!.advanced(by: $0).assumingMemoryBound(to: CChar.self) }
            return PQexecPrepared(handle, statement.name, Int32(values.count), pointers, lengths, formats, 1)
        }
        return try checked(result, doing: statement.sql)
    }

    /// Runs `body` in a transaction (`begin` names its kind); rolls back when it throws.
    func transaction<T>(_ begin: String = "BEGIN", _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if !isBroken && !isIdle { PQclear(PQexec(handle, "ROLLBACK")) }
            throw error
        }
    }

    /// The result, or the error it carries as `StoreError`.
    private func checked(_ result: OpaquePointer?, doing sql: String) throws -> PGResult {
        guard let result else {
            throw StoreError(isBroken ? .unavailable : .failed, "PostgreSQL: \(Self.lastLine(PQerrorMessage(handle)))")
        }
        let owned = PGResult(result)
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            succeededCalls += 1
            return owned
        default:
            let state = PQresultErrorField(result, clibpq_diag_sqlstate).map { String(cString: $0) }
            let message = Self.lastLine(PQresultErrorMessage(result))
            let doing = sql.split(separator: "\n").first.map { String($0.prefix(60)) } ?? ""
            throw StoreError(postgres: state, connectionBroken: isBroken, "PostgreSQL: \(message) (\(doing))")
        }
    }

    /// libpq's messages end with newlines and may run over several lines: the first non-empty one.
    static func lastLine(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "unknown error" }
        return String(cString: message).split(separator: "\n").first.map(String.init) ?? "unknown error"
    }
}

/// A statement prepared once per connection under `name`.
struct PGStatement: Sendable {
    let name: String
    let sql: String
}
