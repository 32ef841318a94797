import CMicroHTTPD

#if canImport(Glibc)
import Glibc
import ServerSupport
#endif

// The C callbacks libmicrohttpd calls from its threads. They are file-scope functions (never
// closures in main.swift, which Swift 6 would make @MainActor) and only forward to Swift objects:
// the server arrives as an unretained `dh_cls`/`cls`, each request's state as a retained `req_cls`.

/// `MHD_OPTION_URI_LOG_CALLBACK`: the first sight of a request; creates its state from the raw URI.
func uriLogCallback(_ cls: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?, _ connection: OpaquePointer?) -> UnsafeMutableRawPointer?
{
    guard let cls else { return nil }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    server.metrics.requestStarted()
    return Unmanaged.passRetained(RequestState(uri: uri)).toOpaque()
}

/// `MHD_OPTION_UNESCAPE_CALLBACK`: leaves the URL as sent; `Request` decodes each segment itself
/// so that `%2F` stays inside its segment.
func keepEscapesCallback(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ text: UnsafeMutablePointer<CChar>?) -> Int {
    guard let text else { return 0 }
    return strlen(text)
}

/// The access handler: called once when the headers are in, once per body piece, once at the end.
func accessHandlerCallback(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?, _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ requestCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let method, let uploadDataSize, let requestCls else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    if requestCls.pointee == nil {
        server.metrics.requestStarted()
        requestCls.pointee = Unmanaged.passRetained(RequestState(uri: url)).toOpaque()
    }
    let state = Unmanaged<RequestState>.fromOpaque(requestCls.pointee!).takeUnretainedValue()
    if !state.sawHeaders, let version { state.isHTTP11 = strcmp(version, "HTTP/1.1") == 0 }
    let keep = server.handle(
        connection: MHDConnection(pointer: connection), state: state, method: method,
        uploadData: uploadData, uploadDataSize: uploadDataSize)
    return keep ? .YES : .NO
}

/// `MHD_OPTION_NOTIFY_COMPLETED`: the request is over however it ended; runs what its handler
/// put off if its answer was never queued, and releases its state.
func requestCompletedCallback(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ requestCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_RequestTerminationCode
) {
    guard let cls, let requestCls, let raw = requestCls.pointee else { return }
    requestCls.pointee = nil
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    server.runPutOff(of: Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue())
    server.metrics.requestEnded()
}

/// The content reader of a streaming response.
func streamReaderCallback(_ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ max: Int) -> Int {
    guard let cls, let buffer else { return CMicroHTTPD_CONTENT_READER_END_WITH_ERROR }
    return Unmanaged<ResponseStream>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, max: max)
}

/// The content reader of a body that is already over (`MHDResponse.headOfStream`).
func endOfStreamReaderCallback(_ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ max: Int)
    -> Int
{
    CMicroHTTPD_CONTENT_READER_END_OF_STREAM
}

/// Called when libmicrohttpd destroys a streaming response: releases its reference to the stream.
func streamFreeCallback(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<ResponseStream>.fromOpaque(cls).takeRetainedValue().terminated()
}

/// Collects request header fields for `MHD_get_connection_values`.
func headerIteratorCallback(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    cls.assumingMemoryBound(to: HTTPHeaders.self).pointee.add(String(cString: key), value.map { String(cString: $0) } ?? "")
    return .YES
}

/// libmicrohttpd's own messages (malformed requests, refused connections), one log line each.
/// A client closing a stream or keep-alive connection (so that a send fails) is routine and not
/// logged, nor is the "application error" with which every chunked stream leaves libmicrohttpd
/// (`ResponseStream.detach`; a stream that cannot detach logs why itself), nor a failed bind,
/// which `HTTPServer.start` throws as a `BindFailure` with the system's reason.
func mhdLogCallback(_ cls: UnsafeMutableRawPointer?, _ message: UnsafePointer<CChar>?) {
    guard let message else { return }
    let text = String(cString: message)
    if text.hasPrefix("Failed to send") || text.contains("closed by remote peer") || text.contains("Connection reset")
        || text.contains("application error generating response") || text.hasPrefix("Failed to bind")
    {
        return
    }
    Log.warning("libmicrohttpd: \(text)")
}
