// The framing guard's place in the process: a table of guarded sockets, the `recv` that reads
// for libmicrohttpd, and the sweep that closes connections past their deadlines.
#define _GNU_SOURCE
#include "framing.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>

/// Guarded connections by socket. Each entry is written when libmicrohttpd opens the connection
/// and cleared before it closes the socket, under `table_lock`; `recv` reads its own socket's
/// entry without the lock (it runs on the thread that owns the connection).
static struct framing_conn *_Atomic *table;
static _Atomic size_t table_size;
/// One past the highest socket ever registered: the sweep looks no further.
static size_t table_high;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

/// Sizes the table for every socket this process may open (at most 2^20).
static void table_init(void) {
    size_t size = 65536;
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
        size_t hard = limit.rlim_max == RLIM_INFINITY || limit.rlim_max > (1u << 20) ? (1u << 20) : (size_t) limit.rlim_max;
        if (hard > size) size = hard;
    }
    table = calloc(size, sizeof *table);
    atomic_store(&table_size, table == NULL ? 0 : size);
}

/// The C library's `recv`, which this file replaces for the whole process.
static ssize_t system_recv(int fd, void *buffer, size_t length, int flags) {
    return recvfrom(fd, buffer, length, flags, NULL, NULL);
}

/// Reads for libmicrohttpd on a guarded socket: returns only checked bytes. Reads on until the
/// caller's buffer is full or the socket has nothing more, so that libmicrohttpd, which waits
/// for the next edge-triggered epoll event after a short read, is never left waiting on bytes
/// already read.
static ssize_t guarded_recv(struct framing_conn *conn, unsigned char *buffer, size_t length) {
    if (atomic_load_explicit(&conn->expired, memory_order_relaxed)) return 0;
    struct framing_sink sink = {buffer, 0, length, conn, false};
    unsigned char scratch[16384];
    // After a violation, unread bytes are dropped (up to 1 MiB a call): a socket closed with
    // unread bytes sends a reset, which could destroy the answer before the client reads it.
    size_t discarded = 0;
    for (;;) {
        if (conn->pending_offset < conn->pending_length) {
            size_t count = conn->pending_length - conn->pending_offset;
            if (count > sink.capacity - sink.length) count = sink.capacity - sink.length;
            memcpy(sink.buffer + sink.length, conn->pending + conn->pending_offset, count);
            sink.length += count;
            conn->pending_offset += count;
            if (sink.length == sink.capacity) return (ssize_t) sink.length;
        }
        enum framing_phase phase = atomic_load_explicit(&conn->phase, memory_order_relaxed);
        size_t room = sink.capacity - sink.length;
        size_t want;
        ssize_t got;
        if ((phase == PHASE_BODY || phase == PHASE_CHUNK_DATA) && conn->line_length == 0) {
            // Body bytes go straight into place.
            want = conn->remaining < room ? (size_t) conn->remaining : room;
            got = system_recv(conn->fd, sink.buffer + sink.length, want, 0);
            if (got > 0) {
                framing_passed(conn, (size_t) got);
                sink.length += (size_t) got;
            }
        } else {
            want = phase == PHASE_DISCARD || room > sizeof scratch ? sizeof scratch : room;
            got = system_recv(conn->fd, scratch, want, 0);
            if (got > 0 && phase == PHASE_DISCARD) discarded += (size_t) got;
            if (got > 0 && phase != PHASE_DISCARD) framing_feed(conn, scratch, (size_t) got, &sink);
            if (sink.failed) {
                errno = ECONNRESET;
                return -1;
            }
        }
        if (got < 0) {
            if (sink.length > 0) return (ssize_t) sink.length;   // an error shows at the next call
            return -1;
        }
        if (got == 0) {
            if (sink.length > 0) return (ssize_t) sink.length;
            if (phase == PHASE_DISCARD) {
                // The refused request's answer is still to go out: no end-of-stream yet.
                errno = EAGAIN;
                return -1;
            }
            return 0;
        }
        if (sink.length == sink.capacity) return (ssize_t) sink.length;
        if ((size_t) got < want || discarded > (1u << 20)) {
            // The socket had no more: a short read is safe, a new arrival brings a new event.
            if (sink.length > 0) return (ssize_t) sink.length;
            errno = EAGAIN;
            return -1;
        }
    }
}

/// Replaces the C library's `recv` for the process: guarded sockets are read through the guard,
/// every other socket (and any call with flags) goes straight to `recvfrom`.
ssize_t recv(int fd, void *buffer, size_t length, int flags) {
    struct framing_conn *conn = NULL;
    if (flags == 0 && fd >= 0 && (size_t) fd < atomic_load_explicit(&table_size, memory_order_acquire)) {
        conn = atomic_load_explicit(&table[fd], memory_order_acquire);
    }
    if (conn == NULL || length == 0) return system_recv(fd, buffer, length, flags);
    return guarded_recv(conn, buffer, length);
}

/// `MHD_OPTION_NOTIFY_CONNECTION`: registers a connection's socket when it opens (its first
/// head's deadline starts now) and removes it before libmicrohttpd closes the socket.
static void guard_notify(void *cls, struct MHD_Connection *connection, void **context,
                         enum MHD_ConnectionNotificationCode code) {
    struct CMicroHTTPD_Guard *guard = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        pthread_once(&table_once, table_init);
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        int fd = info == NULL ? -1 : info->connect_fd;
        if (fd < 0) return;
        struct framing_conn *conn = (size_t) fd < atomic_load(&table_size) ? calloc(1, sizeof *conn) : NULL;
        if (conn == NULL) {
            shutdown(fd, SHUT_RDWR);   // never serve a connection the guard cannot watch
            return;
        }
        const union MHD_ConnectionInfo *client = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        conn->caps = caps_acquire(guard, client == NULL ? NULL : client->client_addr);
        conn->fd = fd;
        conn->guard = guard;
        conn->limits = &guard->limits;
        atomic_init(&conn->phase, PHASE_HEAD_START);
        atomic_init(&conn->clock_started, framing_now());
        pthread_mutex_lock(&table_lock);
        atomic_store_explicit(&table[fd], conn, memory_order_release);
        if ((size_t) fd + 1 > table_high) table_high = (size_t) fd + 1;
        pthread_mutex_unlock(&table_lock);
        *context = conn;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        struct framing_conn *conn = *context;
        if (conn == NULL) return;
        *context = NULL;
        pthread_mutex_lock(&table_lock);
        if (atomic_load(&table[conn->fd]) == conn) atomic_store_explicit(&table[conn->fd], NULL, memory_order_release);
        pthread_mutex_unlock(&table_lock);
        caps_release(guard, conn->caps);
        free(conn->line);
        free(conn->pending);
        free(conn);
    }
}

struct CMicroHTTPD_Guard *CMicroHTTPD_guard_create(struct CMicroHTTPD_GuardLimits limits) {
    pthread_once(&table_once, table_init);
    if (atomic_load(&table_size) == 0) return NULL;
    struct CMicroHTTPD_Guard *guard = calloc(1, sizeof *guard);
    if (guard == NULL) return NULL;
    guard->limits = limits;
    pthread_mutex_init(&guard->caps_lock, NULL);
    return guard;
}

void CMicroHTTPD_guard_destroy(struct CMicroHTTPD_Guard *guard) {
    if (guard == NULL) return;
    for (size_t bucket = 0; bucket < CAPS_BUCKETS; bucket++) {
        while (guard->buckets[bucket] != NULL) {
            struct CMicroHTTPD_AddressCount *entry = guard->buckets[bucket];
            guard->buckets[bucket] = entry->next;
            free(entry);
        }
    }
    pthread_mutex_destroy(&guard->caps_lock);
    free(guard);
}

struct CMicroHTTPD_AddressCount *CMicroHTTPD_guard_detach(int fd) {
    if (fd < 0 || (size_t) fd >= atomic_load_explicit(&table_size, memory_order_acquire)) return NULL;
    struct framing_conn *conn = atomic_load_explicit(&table[fd], memory_order_acquire);
    if (conn == NULL) return NULL;
    struct CMicroHTTPD_AddressCount *count = conn->caps;
    conn->caps = NULL;
    return count;
}

MHD_AcceptPolicyCallback CMicroHTTPD_guard_accept_policy(void) {
    return caps_accept;
}

struct MHD_OptionItem CMicroHTTPD_option_guard(struct CMicroHTTPD_Guard *guard) {
    struct MHD_OptionItem item = {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) guard_notify, guard};
    return item;
}

/// True when a connection in `phase` has had `elapsed` ns for what it sent so far and is late.
static bool is_late(const struct framing_conn *conn, enum framing_phase phase, uint64_t elapsed) {
    const struct CMicroHTTPD_GuardLimits *limits = conn->limits;
    if (phase == PHASE_HEAD_START || phase == PHASE_FIELDS) {
        return limits->head_timeout_ns != 0 && elapsed > limits->head_timeout_ns;
    }
    if (phase == PHASE_DISCARD || limits->body_min_rate == 0) return false;
    uint64_t bytes = atomic_load_explicit(&conn->body_bytes, memory_order_relaxed);
    uint64_t rate = limits->body_min_rate;
    uint64_t earned = bytes / rate * 1000000000u + bytes % rate * 1000000000u / rate;
    return elapsed > limits->body_grace_ns + earned;
}

struct CMicroHTTPD_SweepResult CMicroHTTPD_guard_sweep(struct CMicroHTTPD_Guard *guard) {
    struct CMicroHTTPD_SweepResult result = {0, 0};
    uint64_t now = framing_now();
    pthread_mutex_lock(&table_lock);
    for (size_t fd = 0; fd < table_high; fd++) {
        struct framing_conn *conn = atomic_load_explicit(&table[fd], memory_order_relaxed);
        if (conn == NULL || conn->guard != guard || atomic_load(&conn->expired)) continue;
        uint64_t started = atomic_load_explicit(&conn->clock_started, memory_order_relaxed);
        if (started == 0 || now <= started) continue;
        enum framing_phase phase = atomic_load_explicit(&conn->phase, memory_order_relaxed);
        if (!is_late(conn, phase, now - started)) continue;
        // The socket stays open (libmicrohttpd closes it, after removing it from this table
        // under the lock held here); shutting it down makes libmicrohttpd see the client leave.
        atomic_store(&conn->expired, true);
        shutdown((int) fd, SHUT_RDWR);
        if (phase == PHASE_HEAD_START || phase == PHASE_FIELDS) result.slow_heads++;
        else result.slow_bodies++;
    }
    pthread_mutex_unlock(&table_lock);
    return result;
}
