// Internal to the framing guard: one connection's parsing state and the parser's entry point.
#ifndef CMICROHTTPD_FRAMING_H
#define CMICROHTTPD_FRAMING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include "include/FramingGuard.h"

/// Buckets of the per-address connection counts.
#define CAPS_BUCKETS 1024

/// One client address's open connections (libmicrohttpd's and detached streams').
struct CMicroHTTPD_AddressCount {
    struct CMicroHTTPD_AddressCount *next;
    int family;
    uint32_t length;
    unsigned char address[16];
    uint32_t count;
};

/// One daemon's guard: its limits, and the connections it counts against the caps.
struct CMicroHTTPD_Guard {
    struct CMicroHTTPD_GuardLimits limits;
    pthread_mutex_t caps_lock;
    struct CMicroHTTPD_AddressCount *buckets[CAPS_BUCKETS];
    uint32_t total;
};

/// Counts a new connection from `address` (its entry is created if needed); NULL when memory
/// runs out (the connection is then not counted).
struct CMicroHTTPD_AddressCount *caps_acquire(struct CMicroHTTPD_Guard *guard, const struct sockaddr *address);

/// Takes back one connection counted by `caps_acquire`.
void caps_release(struct CMicroHTTPD_Guard *guard, struct CMicroHTTPD_AddressCount *entry);

/// libmicrohttpd's accept policy: MHD_NO when the address or the daemon is at its cap.
enum MHD_Result caps_accept(void *cls, const struct sockaddr *address, socklen_t length);

/// Where a connection's byte stream is, between requests or inside one.
enum framing_phase {
    /// Before a request line (empty lines there are skipped); no deadline until its first byte.
    PHASE_HEAD_START,
    /// Header field lines, up to the empty line that ends the head.
    PHASE_FIELDS,
    /// `remaining` body bytes announced by Content-Length.
    PHASE_BODY,
    /// A chunk-size line of a chunked body.
    PHASE_CHUNK_SIZE,
    /// `remaining` bytes of chunk data.
    PHASE_CHUNK_DATA,
    /// The line end after chunk data.
    PHASE_CHUNK_END,
    /// Trailer field lines after the last chunk, up to an empty line.
    PHASE_TRAILERS,
    /// After a violation: everything the client sends is read and dropped.
    PHASE_DISCARD,
};

/// Violation codes, each with a status and a detail in framing_violations.c.
enum framing_violation {
    V_REQUEST_LINE = 1,
    V_VERSION,
    V_TARGET_TOO_LONG,
    V_HEAD_TOO_LARGE,
    V_OBS_FOLD,
    V_SPACE_IN_NAME,
    V_FIELD_SYNTAX,
    V_CONTROL_BYTE,
    V_LENGTH_REPEATED,
    V_LENGTH_INVALID,
    V_LENGTH_TOO_LARGE,
    V_CODING_REPEATED,
    V_CODING_UNKNOWN,
    V_CODING_WITH_LENGTH,
    V_CODING_IN_HTTP10,
    V_HOST_MISSING,
    V_HOST_REPEATED,
    V_HOST_INVALID,
    V_CHUNK_SYNTAX,
    V_CHUNK_TOO_LARGE,
    V_RESERVED_FIELD,
    V_TOO_MANY_PARAMETERS,
    V_COUNT
};

/// One guarded connection. The parsing fields belong to the thread libmicrohttpd runs the
/// connection on; the atomics are also read by the sweeper.
struct framing_conn {
    int fd;
    const struct CMicroHTTPD_Guard *guard;
    const struct CMicroHTTPD_GuardLimits *limits;
    /// This connection's count against the caps; NULL once a stream detached it (the stream
    /// then holds the count until its socket closes).
    struct CMicroHTTPD_AddressCount *caps;

    _Atomic int phase;
    /// When the current head or body began (monotonic ns); 0 while no deadline runs.
    _Atomic uint64_t clock_started;
    /// Body bytes (chunk framing included) received since `clock_started`, for the rate.
    _Atomic uint64_t body_bytes;
    /// Set by the sweeper: the socket was shut down; reads answer end-of-stream.
    _Atomic bool expired;

    // The current head.
    bool http10;
    bool has_length;
    bool has_coding;
    uint32_t hosts;
    uint32_t fields;
    uint32_t head_bytes;
    uint64_t remaining;

    // A line that has not ended yet (held back until it does, then checked and passed on).
    unsigned char *line;
    uint32_t line_length;
    uint32_t line_capacity;

    // Checked bytes libmicrohttpd's buffer had no room for yet.
    unsigned char *pending;
    size_t pending_length;
    size_t pending_offset;
    size_t pending_capacity;
};

/// Where checked bytes go: the caller's buffer first, then the connection's `pending`.
struct framing_sink {
    unsigned char *buffer;
    size_t length;
    size_t capacity;
    struct framing_conn *conn;
    /// Set when memory for `pending` ran out: the connection must be dropped.
    bool failed;
};

/// Monotonic nanoseconds.
uint64_t framing_now(void);

/// Checks `count` bytes just read from the connection's socket and writes what passes (and any
/// violation marker) to `sink`.
void framing_feed(struct framing_conn *conn, const unsigned char *bytes, size_t count,
                  struct framing_sink *sink);

/// Appends bytes to a sink.
void framing_emit(struct framing_sink *sink, const void *bytes, size_t count);

/// Counts `count` body or chunk-data bytes the caller read straight into place (no more than
/// `remaining`); the fast path for large bodies.
void framing_passed(struct framing_conn *conn, size_t count);

/// What `framing_check_field` returns for a field that is fine but not passed on.
#define FIELD_DROPPED (-1)

/// Field-level checks of one header or trailer line (without its line end): returns 0,
/// `FIELD_DROPPED`, or a violation code, and records Content-Length, Transfer-Encoding and Host in `conn`.
/// `canonical` receives the line to pass on instead (Content-Length and Transfer-Encoding are
/// rewritten in one spelling libmicrohttpd reads exactly as the guard did), or stays empty.
int framing_check_field(struct framing_conn *conn, const unsigned char *line, size_t length,
                        bool trailer, char canonical[64]);

/// Checks a request line (without its line end): returns 0 or a violation code.
int framing_check_request_line(struct framing_conn *conn, const unsigned char *line, size_t length);

#endif
