// The framing guard: strict HTTP/1.1 request framing in front of libmicrohttpd's own parser,
// and the deadlines that cut slow clients (see docs/SERVER.md, "Hostile clients").
//
// libmicrohttpd 0.9.75 is lenient where a proxy in front of it may not be (two Content-Length
// fields, Transfer-Encoding with Content-Length, obsolete line folding appended to the field
// *name*, a space before a colon), and answers some malformed requests with HTML, sometimes
// with its status line twice. Nothing in its API sees the raw bytes, so the guard sits below
// it: it defines `recv` for the process, and for the sockets of guarded daemons (registered
// through MHD_OPTION_NOTIFY_CONNECTION) it reads the bytes first, checks every request head,
// chunk line and trailer, and hands libmicrohttpd only what passed. Every other socket's
// `recv` goes straight to the C library.
//
// A request that breaks the rules reaches libmicrohttpd as a harmless request carrying the
// header field `CMicroHTTPD_VIOLATION_FIELD: CODE` (in its head, or as a trailer of a chunked
// body), and nothing after it: the access handler answers it with
// `CMicroHTTPD_violation_status(CODE)` and closes the connection. A client's own field of that
// name is itself a violation, so the marker cannot be forged.
#ifndef CMICROHTTPD_FRAMING_GUARD_H
#define CMICROHTTPD_FRAMING_GUARD_H

#include <stdint.h>
#include <microhttpd.h>

/// What a guarded daemon accepts, and how long it waits.
struct CMicroHTTPD_GuardLimits {
    /// Most bytes in a request head (request line and header fields, line ends included); the
    /// trailers of a chunked body get as many again. Keep it under half the connection memory
    /// limit: libmicrohttpd keeps the head in that pool.
    uint32_t max_head_bytes;
    /// Most header fields in a head (and trailer fields after a chunked body).
    uint32_t max_fields;
    /// A request head must be complete this long after its first byte (a new connection's first
    /// head: after the connection was accepted). 0: no deadline.
    uint64_t head_timeout_ns;
    /// A request body gets this long, plus one second for every `body_min_rate` bytes received.
    uint64_t body_grace_ns;
    /// Bytes per second a body must average after its grace period. 0: no body deadline.
    uint64_t body_min_rate;
    /// Most connections open at once from one client address (libmicrohttpd's and detached
    /// streams'). 0: no cap.
    uint32_t max_per_address;
    /// Most connections open at once in all, counted the same way. 0: no cap.
    uint32_t max_connections;
};

/// What one sweep did.
struct CMicroHTTPD_SweepResult {
    /// Connections closed because their request head was not complete in time.
    uint32_t slow_heads;
    /// Connections closed because their request body arrived too slowly.
    uint32_t slow_bodies;
};

/// One daemon's guard; create it before the daemon, destroy it after `MHD_stop_daemon`.
struct CMicroHTTPD_Guard;

/// The header field that carries a violation's code to the access handler.
extern const char *const CMicroHTTPD_VIOLATION_FIELD;

/// A guard with these limits, or NULL when memory runs out.
struct CMicroHTTPD_Guard *CMicroHTTPD_guard_create(struct CMicroHTTPD_GuardLimits limits);

/// Frees the guard; its daemon must be stopped (every connection closed).
void CMicroHTTPD_guard_destroy(struct CMicroHTTPD_Guard *guard);

/// `MHD_OPTION_NOTIFY_CONNECTION` for the daemon the guard protects: registers each connection's
/// socket when it opens and forgets it before it is closed.
struct MHD_OptionItem CMicroHTTPD_option_guard(struct CMicroHTTPD_Guard *guard);

/// One client address's count of open connections (see `CMicroHTTPD_guard_detach`).
struct CMicroHTTPD_AddressCount;

/// libmicrohttpd's accept policy (the `apc` of `MHD_start_daemon`, with the guard as its
/// argument): refuses a connection when its address already has `max_per_address` open, or the
/// daemon `max_connections`. libmicrohttpd then closes it without an answer.
MHD_AcceptPolicyCallback CMicroHTTPD_guard_accept_policy(void);

/// Takes the connection on socket `fd` out of the guard's count before a stream detaches its
/// socket from libmicrohttpd, on the connection's thread: the count goes with the stream, which
/// gives it back with `CMicroHTTPD_guard_release_detached` when it closes its socket. NULL when
/// the connection is not counted.
struct CMicroHTTPD_AddressCount *CMicroHTTPD_guard_detach(int fd);

/// Gives back the count of a detached stream (NULL: nothing).
void CMicroHTTPD_guard_release_detached(struct CMicroHTTPD_Guard *guard, struct CMicroHTTPD_AddressCount *count);

/// Connections the guard counts now (libmicrohttpd's and detached streams').
uint32_t CMicroHTTPD_guard_open_connections(struct CMicroHTTPD_Guard *guard);

/// Closes the guarded connections whose request head or body missed its deadline (a shutdown of
/// the socket, which libmicrohttpd then sees as the client leaving). Call it a few times a second.
struct CMicroHTTPD_SweepResult CMicroHTTPD_guard_sweep(struct CMicroHTTPD_Guard *guard);

/// The HTTP status for a violation code (400 when the code is unknown).
unsigned int CMicroHTTPD_violation_status(unsigned int code);

/// A sentence for the client saying what was wrong with the request's framing.
const char *CMicroHTTPD_violation_detail(unsigned int code);

#endif
