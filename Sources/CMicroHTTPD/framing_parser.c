// The framing guard's parser: follows one connection's requests byte by byte (heads, bodies by
// Content-Length, chunked bodies and their trailers) and passes on only what it checked.
//
// Lines are held back until they end, then checked and passed on whole; body bytes pass at once.
// A violation ends the request early with the marker field and drops everything after it.
#include "framing.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/// Longest chunk-size line (size, extensions, line end).
enum { MAX_CHUNK_LINE = 1024 };

uint64_t framing_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t) now.tv_sec * 1000000000u + (uint64_t) now.tv_nsec;
}

void framing_emit(struct framing_sink *sink, const void *bytes, size_t count) {
    size_t room = sink->capacity - sink->length;
    size_t direct = count < room ? count : room;
    memcpy(sink->buffer + sink->length, bytes, direct);
    sink->length += direct;
    if (direct == count) return;
    struct framing_conn *conn = sink->conn;
    size_t rest = count - direct;
    if (conn->pending_offset == conn->pending_length) conn->pending_offset = conn->pending_length = 0;
    if (conn->pending_length + rest > conn->pending_capacity) {
        size_t capacity = (conn->pending_length + rest) * 2;
        unsigned char *grown = realloc(conn->pending, capacity);
        if (grown == NULL) { sink->failed = true; return; }
        conn->pending = grown;
        conn->pending_capacity = capacity;
    }
    memcpy(conn->pending + conn->pending_length, (const unsigned char *) bytes + direct, rest);
    conn->pending_length += rest;
}

/// Starts the wait for the next request: no deadline until its first byte.
static void request_done(struct framing_conn *conn) {
    conn->http10 = false;
    conn->has_length = false;
    conn->has_coding = false;
    conn->hosts = 0;
    conn->fields = 0;
    conn->head_bytes = 0;
    conn->remaining = 0;
    atomic_store_explicit(&conn->phase, PHASE_HEAD_START, memory_order_relaxed);
    atomic_store_explicit(&conn->clock_started, 0, memory_order_relaxed);
}

static void enter(struct framing_conn *conn, enum framing_phase phase) {
    atomic_store_explicit(&conn->phase, phase, memory_order_relaxed);
}

/// Ends the request in a form libmicrohttpd accepts, carrying the violation code, and drops
/// the rest of the connection's input.
static void violate(struct framing_conn *conn, struct framing_sink *sink, int code) {
    char text[160];
    const char *prefix = "";
    switch (atomic_load_explicit(&conn->phase, memory_order_relaxed)) {
    case PHASE_HEAD_START: prefix = "GET / HTTP/1.1\r\nHost: invalid\r\n"; break;
    case PHASE_CHUNK_SIZE: prefix = "0\r\n"; break;
    case PHASE_CHUNK_END: prefix = "\r\n0\r\n"; break;
    default: break;  // PHASE_FIELDS, PHASE_TRAILERS: the marker is one more field
    }
    int length = snprintf(text, sizeof text, "%s%s: %d\r\n\r\n", prefix, CMicroHTTPD_VIOLATION_FIELD, code);
    framing_emit(sink, text, (size_t) length);
    conn->line_length = 0;
    enter(conn, PHASE_DISCARD);
    atomic_store_explicit(&conn->clock_started, 0, memory_order_relaxed);
}

/// The end of the head: checks what only the whole head shows, then where the body goes.
static int end_head(struct framing_conn *conn) {
    if (!conn->http10 && conn->hosts == 0) return V_HOST_MISSING;
    uint64_t now = framing_now();
    atomic_store_explicit(&conn->body_bytes, 0, memory_order_relaxed);
    if (conn->has_coding) {
        enter(conn, PHASE_CHUNK_SIZE);
        atomic_store_explicit(&conn->clock_started, now, memory_order_relaxed);
    } else if (conn->has_length && conn->remaining > 0) {
        enter(conn, PHASE_BODY);
        atomic_store_explicit(&conn->clock_started, now, memory_order_relaxed);
    } else {
        request_done(conn);
    }
    return 0;
}

/// A chunk-size line: 1 to 15 hex digits, then nothing or ";" and chunk extensions.
static int check_chunk_size(struct framing_conn *conn, const unsigned char *line, size_t length) {
    size_t digits = 0;
    uint64_t size = 0;
    while (digits < length) {
        unsigned char c = line[digits];
        unsigned value;
        if (c >= '0' && c <= '9') value = c - '0';
        else if (c >= 'a' && c <= 'f') value = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') value = c - 'A' + 10;
        else break;
        if (++digits > 15) return V_CHUNK_TOO_LARGE;
        size = size * 16 + value;
    }
    if (digits == 0) return V_CHUNK_SYNTAX;
    if (digits < length && line[digits] != ';') return V_CHUNK_SYNTAX;
    for (size_t i = digits; i < length; i++) {
        if (line[i] != '\t' && (line[i] < 0x20 || line[i] == 0x7F)) return V_CHUNK_SYNTAX;
    }
    conn->remaining = size;
    return 0;
}

/// One complete line (`count` bytes with its line end): checks it, then passes it on.
static void on_line(struct framing_conn *conn, const unsigned char *line, size_t count, struct framing_sink *sink) {
    size_t length = count - 1;                       // without the LF
    if (length > 0 && line[length - 1] == '\r') length--;
    if (memchr(line, '\r', length) != NULL || memchr(line, '\0', length) != NULL) {
        enum framing_phase phase = atomic_load_explicit(&conn->phase, memory_order_relaxed);
        violate(conn, sink, phase == PHASE_CHUNK_SIZE || phase == PHASE_CHUNK_END ? V_CHUNK_SYNTAX : V_CONTROL_BYTE);
        return;
    }
    enum framing_phase phase = atomic_load_explicit(&conn->phase, memory_order_relaxed);
    char canonical[64] = "";
    int violation = 0;
    switch (phase) {
    case PHASE_HEAD_START:
        conn->head_bytes += (uint32_t) count;
        if (length == 0) return;                     // an empty line before a request: skipped
        violation = framing_check_request_line(conn, line, length);
        if (violation == 0) enter(conn, PHASE_FIELDS);
        break;
    case PHASE_FIELDS:
    case PHASE_TRAILERS:
        conn->head_bytes += (uint32_t) count;
        if (length == 0) {
            if (phase == PHASE_FIELDS && (violation = end_head(conn)) != 0) break;
            if (phase == PHASE_TRAILERS) request_done(conn);
            framing_emit(sink, line, count);
            return;
        }
        violation = framing_check_field(conn, line, length, phase == PHASE_TRAILERS, canonical);
        break;
    case PHASE_CHUNK_SIZE:
        atomic_fetch_add_explicit(&conn->body_bytes, count, memory_order_relaxed);
        violation = check_chunk_size(conn, line, length);
        if (violation == 0) {
            if (conn->remaining == 0) {
                enter(conn, PHASE_TRAILERS);   // trailers share the head's limits
            } else {
                enter(conn, PHASE_CHUNK_DATA);
            }
        }
        break;
    case PHASE_CHUNK_END:
        atomic_fetch_add_explicit(&conn->body_bytes, count, memory_order_relaxed);
        if (length != 0) violation = V_CHUNK_SYNTAX;
        else enter(conn, PHASE_CHUNK_SIZE);
        break;
    default:
        return;
    }
    if (violation == FIELD_DROPPED) {
        return;
    } else if (violation != 0) {
        violate(conn, sink, violation);
    } else if (canonical[0] != '\0') {
        framing_emit(sink, canonical, strlen(canonical));
        framing_emit(sink, "\r\n", 2);
    } else {
        framing_emit(sink, line, count);
    }
}

/// The most bytes the line being read may still take before it breaks a limit, and the code then.
static size_t line_room(const struct framing_conn *conn, int *code) {
    enum framing_phase phase = atomic_load_explicit(&conn->phase, memory_order_relaxed);
    if (phase == PHASE_CHUNK_SIZE || phase == PHASE_CHUNK_END) {
        *code = V_CHUNK_SYNTAX;
        return MAX_CHUNK_LINE;
    }
    *code = phase == PHASE_HEAD_START ? V_TARGET_TOO_LONG : V_HEAD_TOO_LARGE;
    uint32_t limit = conn->limits->max_head_bytes;
    return conn->head_bytes >= limit ? 0 : limit - conn->head_bytes;
}

/// Holds the start of a line that has not ended; false when memory runs out.
static bool hold(struct framing_conn *conn, const unsigned char *bytes, size_t count) {
    if (conn->line_length + count > conn->line_capacity) {
        uint32_t capacity = conn->line_capacity ? conn->line_capacity : 256;
        while (capacity < conn->line_length + count) capacity *= 2;
        unsigned char *grown = realloc(conn->line, capacity);
        if (grown == NULL) return false;
        conn->line = grown;
        conn->line_capacity = capacity;
    }
    memcpy(conn->line + conn->line_length, bytes, count);
    conn->line_length += (uint32_t) count;
    return true;
}

void framing_passed(struct framing_conn *conn, size_t count) {
    atomic_fetch_add_explicit(&conn->body_bytes, count, memory_order_relaxed);
    conn->remaining -= count;
    if (conn->remaining > 0) return;
    if (atomic_load_explicit(&conn->phase, memory_order_relaxed) == PHASE_BODY) request_done(conn);
    else enter(conn, PHASE_CHUNK_END);
}

void framing_feed(struct framing_conn *conn, const unsigned char *bytes, size_t count, struct framing_sink *sink) {
    size_t i = 0;
    while (i < count && !sink->failed) {
        enum framing_phase phase = atomic_load_explicit(&conn->phase, memory_order_relaxed);
        if (phase == PHASE_DISCARD) return;
        if (phase == PHASE_BODY || phase == PHASE_CHUNK_DATA) {
            size_t take = count - i < conn->remaining ? count - i : (size_t) conn->remaining;
            framing_emit(sink, bytes + i, take);
            atomic_fetch_add_explicit(&conn->body_bytes, take, memory_order_relaxed);
            conn->remaining -= take;
            i += take;
            if (conn->remaining == 0) {
                if (phase == PHASE_BODY) request_done(conn);
                else enter(conn, PHASE_CHUNK_END);
            }
            continue;
        }
        if (phase == PHASE_HEAD_START && atomic_load_explicit(&conn->clock_started, memory_order_relaxed) == 0) {
            atomic_store_explicit(&conn->clock_started, framing_now(), memory_order_relaxed);
        }
        const unsigned char *end = memchr(bytes + i, '\n', count - i);
        size_t take = end ? (size_t) (end - (bytes + i)) + 1 : count - i;
        int code;
        if (conn->line_length + take > line_room(conn, &code)) {
            violate(conn, sink, code);
            return;
        }
        if (end != NULL && conn->line_length == 0) {
            on_line(conn, bytes + i, take, sink);
        } else {
            if (!hold(conn, bytes + i, take)) { sink->failed = true; return; }
            if (end != NULL) {
                uint32_t length = conn->line_length;
                conn->line_length = 0;
                on_line(conn, conn->line, length, sink);
                if (conn->line_capacity > 4096) {  // a long line once: do not keep its buffer
                    free(conn->line);
                    conn->line = NULL;
                    conn->line_capacity = 0;
                }
            }
        }
        i += take;
    }
}
