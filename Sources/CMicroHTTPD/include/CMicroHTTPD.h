// C binding to GNU libmicrohttpd (0.9.75): only what Swift cannot do itself.
// Variadic calls get fixed-signature shims; macros that do not import get constants.
#ifndef CMICROHTTPD_H
#define CMICROHTTPD_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
// Not in Swift's Glibc module: the server watches idle stream sockets for hang-ups with epoll.
#include <sys/epoll.h>
// Strict request framing and deadlines, below libmicrohttpd's parser.
#include "FramingGuard.h"

/// `MHD_SIZE_UNKNOWN`: the total size of a response whose length is not known in advance.
extern const uint64_t CMicroHTTPD_SIZE_UNKNOWN;
/// `MHD_CONTENT_READER_END_OF_STREAM`: a content reader's "no more data, end normally".
extern const ssize_t CMicroHTTPD_CONTENT_READER_END_OF_STREAM;
/// `MHD_CONTENT_READER_END_WITH_ERROR`: a content reader's "abort this response".
extern const ssize_t CMicroHTTPD_CONTENT_READER_END_WITH_ERROR;

/// Signature of `MHD_OPTION_URI_LOG_CALLBACK`: sees the raw request URI first; its result becomes `*req_cls`.
typedef void *(*CMicroHTTPD_URILogCallback)(void *cls, const char *uri, struct MHD_Connection *connection);
/// Signature of `MHD_OPTION_UNESCAPE_CALLBACK`: returns the new length of the string it unescaped in place.
typedef size_t (*CMicroHTTPD_UnescapeCallback)(void *cls, struct MHD_Connection *connection, char *s);

/// An option with one integer argument (`MHD_OPTION_CONNECTION_LIMIT`, `..._TIMEOUT`, ...).
struct MHD_OptionItem CMicroHTTPD_option_uint(enum MHD_OPTION option, unsigned int value);
/// An option with one `size_t` argument (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`, ...).
struct MHD_OptionItem CMicroHTTPD_option_size(enum MHD_OPTION option, size_t value);
/// `MHD_OPTION_SOCK_ADDR`: the address to bind (must outlive `CMicroHTTPD_start_daemon`).
struct MHD_OptionItem CMicroHTTPD_option_sock_addr(const struct sockaddr *address);
/// `MHD_OPTION_NOTIFY_COMPLETED`: called once per request when it ends, however it ends.
struct MHD_OptionItem CMicroHTTPD_option_notify_completed(MHD_RequestCompletedCallback callback, void *cls);
/// `MHD_OPTION_URI_LOG_CALLBACK`: see `CMicroHTTPD_URILogCallback`.
struct MHD_OptionItem CMicroHTTPD_option_uri_log(CMicroHTTPD_URILogCallback callback, void *cls);
/// `MHD_OPTION_UNESCAPE_CALLBACK`: see `CMicroHTTPD_UnescapeCallback`.
struct MHD_OptionItem CMicroHTTPD_option_unescape(CMicroHTTPD_UnescapeCallback callback, void *cls);
/// Receives one formatted libmicrohttpd log message (no trailing newline needed).
typedef void (*CMicroHTTPD_LogCallback)(void *cls, const char *message);
/// `MHD_OPTION_EXTERNAL_LOGGER` with a formatter: libmicrohttpd's printf-style messages are
/// formatted here (Swift cannot take a `va_list` format) and handed to `callback` as one string.
/// Put it first in the array so that start-up messages use it too.
struct MHD_OptionItem CMicroHTTPD_option_logger(CMicroHTTPD_LogCallback callback, void *cls);
/// `MHD_OPTION_END`: terminates an option array.
struct MHD_OptionItem CMicroHTTPD_option_end(void);

/// Starts a daemon with options given as an `MHD_OPTION_END`-terminated array.
/// `accept_policy` (may be NULL) decides, with `accept_policy_cls`, whether to keep each
/// accepted connection. Returns NULL on failure (port in use, bad options). Wraps the variadic
/// `MHD_start_daemon`.
struct MHD_Daemon *CMicroHTTPD_start_daemon(unsigned int flags, uint16_t port,
                                            MHD_AcceptPolicyCallback accept_policy, void *accept_policy_cls,
                                            MHD_AccessHandlerCallback handler, void *handler_cls,
                                            const struct MHD_OptionItem *options);

/// Marks a response HTTP/1.0-compatible (`MHD_RF_HTTP_1_0_COMPATIBLE_STRICT`): no chunked
/// encoding, the connection closed after it. Returns MHD_NO on failure.
/// Wraps the variadic `MHD_set_response_options`.
enum MHD_Result CMicroHTTPD_response_http10_compatible(struct MHD_Response *response);

/// The port the daemon is bound to (the real one when started on port 0), or 0 if unknown.
/// Wraps the variadic `MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT)`.
uint16_t CMicroHTTPD_daemon_bind_port(struct MHD_Daemon *daemon);

/// The socket of a connection, or -1 if unknown.
/// Wraps the variadic `MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD)`.
int CMicroHTTPD_connection_fd(struct MHD_Connection *connection);

/// Makes a response of unknown size close-delimited: no chunked framing, the connection closes
/// after it (what a live stream does anyway), so the server may send its bytes to the socket
/// itself while the connection is suspended. Wraps the variadic `MHD_set_response_options`
/// with `MHD_RF_HTTP_1_0_COMPATIBLE_STRICT`.
enum MHD_Result CMicroHTTPD_response_close_delimited(struct MHD_Response *response);

/// Bytes written to a TCP socket that its peer has not acknowledged yet (`ioctl(SIOCOUTQ)`):
/// what a client that stopped reading leaves in the kernel. -1 on error.
int CMicroHTTPD_socket_unsent_bytes(int fd);

/// Sets `TCP_NODELAY` so that small events leave at once (and pushes out anything held back).
/// Returns 0 or -1.
int CMicroHTTPD_socket_set_nodelay(int fd);

/// A second descriptor of the socket `fd` (close-on-exec), which stays open when libmicrohttpd
/// closes `fd`; -1 on error. The daemon must run with `MHD_USE_TURBO`, or its close would first
/// shut the socket down. Wraps `fcntl(F_DUPFD_CLOEXEC)`.
int CMicroHTTPD_socket_duplicate(int fd);

#endif
