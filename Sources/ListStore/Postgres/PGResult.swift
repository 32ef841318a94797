import CLibPQ

/// The rows a statement returned, in binary format; freed when released.
final class PGResult {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }
    deinit { PQclear(handle) }

    /// The corresponding C function is `PQntuples`.
    var rowCount: Int { Int(PQntuples(handle)) }

    /// The corresponding C function is `PQgetisnull`.
    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(handle, Int32(row), Int32(column)) == 1 }

    /// The value's bytes (text, bytea: as stored). The corresponding C function is `PQgetvalue`.
    func bytes(_ row: Int, _ column: Int) -> [UInt8] {
        let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
        guard length > 0, let value = PQgetvalue(handle, Int32(row), Int32(column)) else { return [] }
        return value.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }

    func text(_ row: Int, _ column: Int) -> String {
        String(decoding: bytes(row, column), as: UTF8.self)
    }

    /// An `int8`, `int4` or `int2` column (big-endian in binary format).
    func int(_ row: Int, _ column: Int) -> Int {
        var value: Int64 = 0
        let bytes = bytes(row, column)
        for byte in bytes { value = value << 8 | Int64(byte) }
        // Sign-extend the narrower integer types.
        let shift = 64 - 8 * bytes.count
        return bytes.isEmpty ? 0 : Int((value << shift) >> shift)
    }
}
