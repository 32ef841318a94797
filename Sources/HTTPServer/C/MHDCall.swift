import CMicroHTTPD

/// A libmicrohttpd call that reported failure (`MHD_NO` or NULL).
struct MHDError: Error, CustomStringConvertible {
    let function: String
    var description: String { "\(function) failed" }
}

/// Runs a libmicrohttpd call and throws `MHDError` when it answers `MHD_NO`, the way NIO's
/// `syscall {}` turns errno into an error. Every MHD call that can fail goes through here.
func mhdCall(_ function: String, _ call: () -> MHD_Result) throws {
    guard call() == .YES else { throw MHDError(function: function) }
}

/// Runs a libmicrohttpd call and throws `MHDError` when it answers NULL.
func mhdCall<T>(_ function: String, _ call: () -> T?) throws -> T {
    guard let result = call() else { throw MHDError(function: function) }
    return result
}
